import { codeAssistHeaders, codeAssistProject } from './code-assist.js';
import { byModel, isoToMs, isRecord, num, percentEntry, QuotaFetchError, type QuotaAdapter, type QuotaEntry } from './types.js';

const USER_AGENT = `antigravity/1.11.5 ${process.platform}/${process.arch}`;

/**
 * Antigravity (reference §7): fetchAvailableModels lists each model's `quotaInfo` with the
 * remaining fraction; a model with a reset time but no fraction is exhausted. Percent units.
 */
export const agyQuota: QuotaAdapter = async (input) => {
  const headers = codeAssistHeaders(input, USER_AGENT);
  const project = await codeAssistProject(input, headers);
  const answer = await input.http(`${input.baseUrl}/v1internal:fetchAvailableModels`, {
    method: 'POST',
    headers,
    body: project ? { project } : {},
  });
  const models = isRecord(answer) ? answer.models : undefined;
  if (!isRecord(models)) throw new QuotaFetchError('fetchAvailableModels answered without a models object');
  const entries: QuotaEntry[] = [];
  for (const [id, model] of Object.entries(models)) {
    const info = isRecord(model) ? model.quotaInfo : undefined;
    if (!isRecord(info)) continue;
    const fraction = num(info.remainingFraction);
    const resetAt = isoToMs(info.resetTime);
    if (fraction === undefined && resetAt === null) continue;
    entries.push(percentEntry(id, fraction ?? 0, resetAt));
  }
  return entries.sort(byModel);
};
