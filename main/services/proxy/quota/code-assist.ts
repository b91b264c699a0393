import { accessToken, isRecord, type QuotaAdapterInput } from './types.js';

/** Headers of Google's Cloud Code Assist API as the given client sends them. */
export function codeAssistHeaders(input: QuotaAdapterInput, userAgent: string): Record<string, string> {
  return { authorization: `Bearer ${accessToken(input.auth)}`, 'user-agent': userAgent };
}

/**
 * The account's Cloud project: `project_id` of the auth file, else asked from loadCodeAssist
 * (what the real clients do for accounts whose file lacks it).
 */
export async function codeAssistProject(input: QuotaAdapterInput, headers: Record<string, string>): Promise<string | undefined> {
  const own = input.auth.project_id;
  if (typeof own === 'string' && own !== '') return own;
  const answer = await input.http(`${input.baseUrl}/v1internal:loadCodeAssist`, {
    method: 'POST',
    headers,
    body: { metadata: { ideType: 'IDE_UNSPECIFIED', platform: 'PLATFORM_UNSPECIFIED', pluginType: 'GEMINI' } },
  });
  const project = isRecord(answer) ? answer.cloudaicompanionProject : undefined;
  if (typeof project === 'string' && project !== '') return project;
  if (isRecord(project) && typeof project.id === 'string') return project.id;
  return undefined;
}
