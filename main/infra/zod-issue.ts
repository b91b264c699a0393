import type { z } from 'zod';

/** First issue of a zod error as `field.path: problem`, for 400 messages that name the field. */
export function describeIssue(error: z.ZodError): string {
  const issue = error.issues[0];
  if (!issue) return 'invalid input';
  const where = issue.path.length > 0 ? issue.path.map(String).join('.') : 'body';
  return `${where}: ${issue.message}`;
}
