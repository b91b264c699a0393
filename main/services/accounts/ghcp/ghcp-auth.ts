import { isRecord } from '../../../infra/json-checks.js';
import type { AuthRecord } from '../auth-store.js';
import { ProviderRefusal } from '../errors.js';
import { providerReason, type Outbound } from '../outbound.js';

/** GitHub's device flow with the Copilot client, and the Copilot token exchange (reference §5). */
export const GHCP = {
  deviceCode: 'https://github.com/login/device/code',
  accessToken: 'https://github.com/login/oauth/access_token',
  user: 'https://api.github.com/user',
  copilotToken: 'https://api.github.com/copilot_internal/v2/token',
  clientId: 'Iv1.b507a08c87ecfe98',
  scope: 'read:user user:email',
  /** GitHub asks for at least 5 s between polls; `slow_down` adds 5 s. */
  minIntervalMs: 5000,
  /** Renew the Copilot API token this long before it expires. */
  renewLeadMs: 5 * 60_000,
} as const;

const COPILOT_HEADERS = { 'user-agent': 'GithubCopilot/1.0', 'editor-version': 'vscode/1.100.0', 'editor-plugin-version': 'copilot/1.300.0' };

export interface GhcpDeviceStart {
  deviceCode: string;
  userCode: string;
  verificationUri: string;
  intervalMs: number;
  expiresInMs: number;
}

export async function startGhcpDevice(http: Outbound): Promise<GhcpDeviceStart> {
  const answer = await http('ghcp', GHCP.deviceCode, { method: 'POST', form: { client_id: GHCP.clientId, scope: GHCP.scope } });
  const b = answer.body;
  if (answer.status !== 200 || !isRecord(b) || typeof b.device_code !== 'string' || typeof b.user_code !== 'string') {
    throw new ProviderRefusal('ghcp', `device sign-in could not start: ${providerReason(answer)}`, answer.status);
  }
  const interval = Number(b.interval);
  const expires = Number(b.expires_in);
  return {
    deviceCode: b.device_code,
    userCode: b.user_code,
    verificationUri: typeof b.verification_uri === 'string' ? b.verification_uri : 'https://github.com/login/device',
    intervalMs: b.interval !== undefined && Number.isFinite(interval) && interval >= 0 ? interval * 1000 : GHCP.minIntervalMs,
    expiresInMs: Number.isFinite(expires) && expires > 0 ? expires * 1000 : 15 * 60_000,
  };
}

export type GhcpPoll = { kind: 'pending' } | { kind: 'slow-down' } | { kind: 'token'; accessToken: string; tokenType: string; scope: string };

/** One poll. GitHub answers 200 with `error` while pending; any other error ends the sign-in. */
export async function pollGhcpDevice(http: Outbound, start: GhcpDeviceStart): Promise<GhcpPoll> {
  const answer = await http('ghcp', GHCP.accessToken, {
    method: 'POST',
    form: { client_id: GHCP.clientId, device_code: start.deviceCode, grant_type: 'urn:ietf:params:oauth:grant-type:device_code' },
  });
  const b = answer.body;
  if (isRecord(b) && b.error === 'authorization_pending') return { kind: 'pending' };
  if (isRecord(b) && b.error === 'slow_down') return { kind: 'slow-down' };
  if (answer.status !== 200 || !isRecord(b) || typeof b.access_token !== 'string') {
    throw new ProviderRefusal('ghcp', `GitHub refused the sign-in: ${providerReason(answer)}`, answer.status);
  }
  return { kind: 'token', accessToken: b.access_token, tokenType: String(b.token_type ?? 'bearer'), scope: String(b.scope ?? '') };
}

export interface GithubUser {
  login: string;
  email: string;
  name: string;
}

export async function fetchGithubUser(http: Outbound, githubToken: string): Promise<GithubUser> {
  const answer = await http('ghcp', GHCP.user, { method: 'GET', headers: { authorization: `token ${githubToken}`, 'user-agent': COPILOT_HEADERS['user-agent'] } });
  const b = answer.body;
  if (answer.status !== 200 || !isRecord(b) || typeof b.login !== 'string') {
    throw new ProviderRefusal('ghcp', `GitHub did not answer who signed in: ${providerReason(answer)}`, answer.status, answer.status === 401);
  }
  return { login: b.login, email: typeof b.email === 'string' ? b.email : '', name: typeof b.name === 'string' ? b.name : '' };
}

export interface CopilotToken {
  token: string;
  /** ms */
  expiresAt: number;
  apiBase: string;
}

/** The short-lived Copilot API token; a refusal means the account has no active Copilot subscription. */
export async function fetchCopilotToken(http: Outbound, githubToken: string): Promise<CopilotToken> {
  const answer = await http('ghcp', GHCP.copilotToken, { method: 'GET', headers: { authorization: `token ${githubToken}`, ...COPILOT_HEADERS } });
  const b = answer.body;
  if (answer.status !== 200 || !isRecord(b) || typeof b.token !== 'string') {
    const why = answer.status === 401 ? 'the GitHub token was revoked: sign in again' : 'no active Copilot subscription on this GitHub account';
    throw new ProviderRefusal('ghcp', `${why} (${providerReason(answer)})`, answer.status, answer.status === 401);
  }
  const expires = Number(b.expires_at);
  const endpoints = isRecord(b.endpoints) ? b.endpoints : {};
  return {
    token: b.token,
    expiresAt: Number.isFinite(expires) && expires > 0 ? expires * 1000 : Date.now() + 25 * 60_000,
    apiBase: typeof endpoints.api === 'string' ? endpoints.api : 'https://api.githubcopilot.com',
  };
}

/** CLIProxyAPI's Copilot file (reference §5): `github-copilot-<login>.json`. */
export function ghcpRecord(user: GithubUser, token: { accessToken: string; tokenType: string; scope: string }, copilot: CopilotToken, now: number): { file: string; record: AuthRecord } {
  return {
    file: `github-copilot-${user.login.replace(/[^A-Za-z0-9_.-]/g, '_').replace(/\.\.+/g, '.')}.json`,
    record: {
      type: 'github-copilot',
      username: user.login,
      email: user.email,
      name: user.name,
      access_token: token.accessToken,
      token_type: token.tokenType,
      scope: token.scope,
      timestamp: now,
      api_token_expires_at: Math.floor(copilot.expiresAt / 1000),
    },
  };
}
