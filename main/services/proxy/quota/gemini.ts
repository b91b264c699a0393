import { codeAssistHeaders, codeAssistProject } from './code-assist.js';
import { isoToMs, isRecord, num, percentEntry, QuotaFetchError, type QuotaAdapter, type QuotaEntry } from './types.js';

const USER_AGENT = `GeminiCLI/0.1.5 (${process.platform}; ${process.arch})`;

/**
 * Gemini CLI (reference §7): retrieveUserQuota answers one bucket per model and token type.
 * One entry per bucket, named `modelId` or `modelId:tokenType`; percent units.
 */
export const geminiQuota: QuotaAdapter = async (input) => {
  const headers = codeAssistHeaders(input, USER_AGENT);
  const project = await codeAssistProject(input, headers);
  if (!project) throw new QuotaFetchError('the account has no Cloud project (project_id); sign in with the Gemini CLI first');
  const answer = await input.http(`${input.baseUrl}/v1internal:retrieveUserQuota`, { method: 'POST', headers, body: { project } });
  const buckets = isRecord(answer) ? answer.buckets : undefined;
  if (!Array.isArray(buckets)) throw new QuotaFetchError('retrieveUserQuota answered without buckets');
  const entries: QuotaEntry[] = [];
  for (const bucket of buckets) {
    if (!isRecord(bucket) || typeof bucket.modelId !== 'string') continue;
    const name = typeof bucket.tokenType === 'string' && bucket.tokenType !== '' ? `${bucket.modelId}:${bucket.tokenType}` : bucket.modelId;
    const resetAt = isoToMs(bucket.resetTime);
    const fraction = num(bucket.remainingFraction);
    if (fraction === undefined && resetAt === null) continue;
    entries.push(percentEntry(name, fraction ?? 0, resetAt));
  }
  return entries;
};
