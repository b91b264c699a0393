import { isRecord } from '../../../infra/json-checks.js';
import { ProviderRefusal } from '../errors.js';
import { providerReason, type Outbound } from '../outbound.js';

/** Cloud Code's `v1internal` hosts (reference §2, §3). */
export const CLOUD_CODE = {
  prod: 'https://cloudcode-pa.googleapis.com',
  daily: 'https://daily-cloudcode-pa.googleapis.com',
} as const;

export type CodeAssistAnswer = Record<string, unknown>;

export interface CloudCodeCall {
  http: Outbound;
  provider: string;
  base: string;
  accessToken: string;
  headers?: Record<string, string>;
}

/** `POST {base}/v1internal:<method>` with the account's token; a refusal names Google and its reason. */
async function callCloudCode(call: CloudCodeCall, method: string, body: unknown): Promise<CodeAssistAnswer> {
  const answer = await call.http(call.provider, `${call.base}/v1internal:${method}`, {
    method: 'POST',
    headers: { ...call.headers, authorization: `Bearer ${call.accessToken}` },
    json: body,
  });
  if (answer.status !== 200 || !isRecord(answer.body)) throw new ProviderRefusal(call.provider, `Google's Cloud Code ${method} was refused (${providerReason(answer)})`, answer.status);
  return answer.body;
}

export function loadCodeAssist(call: CloudCodeCall, body: unknown): Promise<CodeAssistAnswer> {
  return callCloudCode(call, 'loadCodeAssist', body);
}

/** The project a Cloud Code answer names: `cloudaicompanionProject` as a string or `{id}`, else `projectId` / `project`. */
export function projectOf(answer: unknown): string {
  if (!isRecord(answer)) return '';
  const p = answer.cloudaicompanionProject;
  if (typeof p === 'string' && p.trim() !== '') return p.trim();
  if (isRecord(p) && typeof p.id === 'string' && p.id.trim() !== '') return p.id.trim();
  for (const key of ['projectId', 'project']) {
    const v = answer[key];
    if (typeof v === 'string' && v.trim() !== '') return v.trim();
  }
  return '';
}

/** The `id` of the tier `allowedTiers` marks `isDefault`, else of `currentTier`, else `fallback`. */
export function tierToOnboard(load: CodeAssistAnswer, fallback: string, useCurrent: boolean): string {
  const tiers = Array.isArray(load.allowedTiers) ? load.allowedTiers : [];
  const preferred = tiers.find((t) => isRecord(t) && t.isDefault === true);
  if (isRecord(preferred) && typeof preferred.id === 'string' && preferred.id !== '') return preferred.id;
  if (useCurrent && isRecord(load.currentTier) && typeof load.currentTier.id === 'string' && load.currentTier.id !== '') return load.currentTier.id;
  return fallback;
}

export interface OnboardPolling {
  attempts: number;
  intervalMs: number;
}

/**
 * `onboardUser`, a long-running operation: asked again every `intervalMs` until it answers
 * `done: true` (its `response` is answered), at most `attempts` times.
 */
export async function onboardUser(call: CloudCodeCall, body: unknown, polling: OnboardPolling): Promise<CodeAssistAnswer> {
  for (let attempt = 1; ; attempt++) {
    const answer = await callCloudCode(call, 'onboardUser', body);
    if (answer.done === true) return isRecord(answer.response) ? answer.response : {};
    if (attempt >= polling.attempts) {
      throw new ProviderRefusal(call.provider, `Google's Cloud Code onboardUser was not done after ${attempt} tries (${Math.round((polling.intervalMs * (attempt - 1)) / 1000)} s); try again in a minute`);
    }
    await new Promise((resolve) => setTimeout(resolve, polling.intervalMs));
  }
}
