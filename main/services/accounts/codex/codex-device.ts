import { isRecord } from '../../../infra/json-checks.js';
import { ProviderRefusal } from '../errors.js';
import { providerReason, type Outbound } from '../outbound.js';
import { CODEX, exchangeCodexCode, type CodexTokens } from './codex-oauth.js';

export interface CodexDeviceStart {
  deviceAuthId: string;
  userCode: string;
  intervalMs: number;
}

/** Device-code alternative (reference §4): the user types `userCode` at auth.openai.com/codex/device. */
export async function startCodexDevice(http: Outbound): Promise<CodexDeviceStart> {
  const answer = await http('codex', CODEX.deviceUserCode, { method: 'POST', json: { client_id: CODEX.clientId } });
  const b = answer.body;
  if (answer.status !== 200 || !isRecord(b) || typeof b.device_auth_id !== 'string' || typeof b.user_code !== 'string') {
    throw new ProviderRefusal('codex', `device sign-in could not start: ${providerReason(answer)}`, answer.status);
  }
  const interval = Number(b.interval);
  return { deviceAuthId: b.device_auth_id, userCode: b.user_code, intervalMs: b.interval !== undefined && Number.isFinite(interval) && interval >= 0 ? interval * 1000 : 5000 };
}

/** One poll: null while the user has not approved yet (403/404), the tokens once they have. */
export async function pollCodexDevice(http: Outbound, start: CodexDeviceStart): Promise<CodexTokens | null> {
  const answer = await http('codex', CODEX.deviceToken, { method: 'POST', json: { device_auth_id: start.deviceAuthId, user_code: start.userCode } });
  if (answer.status === 403 || answer.status === 404) return null;
  const b = answer.body;
  if (answer.status !== 200 || !isRecord(b) || typeof b.authorization_code !== 'string' || typeof b.code_verifier !== 'string') {
    throw new ProviderRefusal('codex', `device sign-in was refused: ${providerReason(answer)}`, answer.status);
  }
  return exchangeCodexCode(http, { code: b.authorization_code, redirectUri: CODEX.deviceRedirect, verifier: b.code_verifier });
}
