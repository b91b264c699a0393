import { createHash } from 'node:crypto';
import { isRecord } from '../../../infra/json-checks.js';
import { jwtClaims } from '../account-view.js';
import type { AuthRecord } from '../auth-store.js';
import type { CodeFlowProvider } from '../code-flow.js';
import { createPkce } from '../pkce.js';
import { ProviderRefusal } from '../errors.js';
import { providerReason, type Outbound, type OutboundAnswer } from '../outbound.js';

/** OpenAI's public Codex client and endpoints (reference §4). */
export const CODEX = {
  issuer: 'https://auth.openai.com',
  authorize: 'https://auth.openai.com/oauth/authorize',
  token: 'https://auth.openai.com/oauth/token',
  deviceUserCode: 'https://auth.openai.com/api/accounts/deviceauth/usercode',
  deviceToken: 'https://auth.openai.com/api/accounts/deviceauth/token',
  deviceVerification: 'https://auth.openai.com/codex/device',
  deviceRedirect: 'https://auth.openai.com/deviceauth/callback',
  clientId: 'app_EMoamEEZ73f0CkXaXp7hrann',
  scope: 'openid email profile offline_access',
  refreshScope: 'openid profile email',
  /** The registered loopback port; the redirect URI is a constant of the client registration. */
  port: 1455,
  callbackPath: '/auth/callback',
  /** Refresh this long before the access token expires (CLIProxyAPI's lead). */
  refreshLeadMs: 5 * 24 * 3600_000,
} as const;

export function codexRedirectUri(port: number): string {
  return `http://localhost:${port}${CODEX.callbackPath}`;
}

export function codexAuthorizeUrl(input: { redirectUri: string; challenge: string; state: string }): string {
  const q = new URLSearchParams({
    client_id: CODEX.clientId,
    response_type: 'code',
    redirect_uri: input.redirectUri,
    scope: CODEX.scope,
    code_challenge: input.challenge,
    code_challenge_method: 'S256',
    state: input.state,
    prompt: 'login',
    id_token_add_organizations: 'true',
    codex_cli_simplified_flow: 'true',
  });
  return `${CODEX.authorize}?${q.toString()}`;
}

/** The browser sign-in: authorization code + PKCE S256 on the loopback callback. */
export const CODEX_CODE_FLOW: CodeFlowProvider = {
  port: CODEX.port,
  plan: ({ port, state, http, now }) => {
    const pkce = createPkce();
    const redirectUri = codexRedirectUri(port);
    return {
      callbackPath: CODEX.callbackPath,
      redirectUri,
      url: codexAuthorizeUrl({ redirectUri, challenge: pkce.challenge, state }),
      complete: async (code) => codexRecord(await exchangeCodexCode(http, { code, redirectUri, verifier: pkce.verifier }), now()),
    };
  },
};

export interface CodexTokens {
  id_token: string;
  access_token: string;
  refresh_token: string;
  expires_in?: number;
}

export async function exchangeCodexCode(http: Outbound, input: { code: string; redirectUri: string; verifier: string }): Promise<CodexTokens> {
  const answer = await http('codex', CODEX.token, {
    method: 'POST',
    form: { grant_type: 'authorization_code', client_id: CODEX.clientId, code: input.code, redirect_uri: input.redirectUri, code_verifier: input.verifier },
  });
  return tokensOf(answer, 'the code exchange');
}

/**
 * One refresh. Codex refresh tokens are single-use: `refresh_token_reused` (or a revoked or
 * expired one) is fatal, the user must sign in again, and it is never retried.
 */
export async function refreshCodex(http: Outbound, refreshToken: string): Promise<CodexTokens> {
  const answer = await http('codex', CODEX.token, {
    method: 'POST',
    form: { client_id: CODEX.clientId, grant_type: 'refresh_token', refresh_token: refreshToken, scope: CODEX.refreshScope },
  });
  if (answer.status >= 400 && answer.status < 500 && /refresh_token_(reused|expired|invalidated)|invalid_grant/.test(answer.text)) {
    throw new ProviderRefusal('codex', `signed out by the provider: sign in again (${providerReason(answer)})`, answer.status, true);
  }
  const tokens = tokensOf(answer, 'the refresh');
  // A refresh answer may leave out the id_token; the caller keeps the old one then.
  return tokens;
}

function tokensOf(answer: OutboundAnswer, what: string): CodexTokens {
  const b = answer.body;
  if (answer.status !== 200 || !isRecord(b)) throw new ProviderRefusal('codex', `${what} was refused: ${providerReason(answer)}`, answer.status);
  if (typeof b.access_token !== 'string' || typeof b.refresh_token !== 'string') {
    throw new ProviderRefusal('codex', `${what} answered without access_token and refresh_token`, answer.status);
  }
  return {
    id_token: typeof b.id_token === 'string' ? b.id_token : '',
    access_token: b.access_token,
    refresh_token: b.refresh_token,
    expires_in: typeof b.expires_in === 'number' ? b.expires_in : undefined,
  };
}

/** Claims of the id_token that name the account (reference §4: decoded without verification). */
export function codexIdentity(idToken: string): { email: string | null; accountId: string | null; plan: string | null } {
  const claims = jwtClaims(idToken) ?? {};
  const auth = isRecord(claims['https://api.openai.com/auth']) ? claims['https://api.openai.com/auth'] : {};
  const s = (v: unknown) => (typeof v === 'string' && v !== '' ? v : null);
  return { email: s(claims.email), accountId: s(auth.chatgpt_account_id), plan: s(auth.chatgpt_plan_type) };
}

/** CLIProxyAPI's codex file (reference §4 and §0.3 item 4). */
export function codexRecord(tokens: CodexTokens, now: number, previous?: AuthRecord): { file: string; record: AuthRecord } {
  const idToken = tokens.id_token || (typeof previous?.id_token === 'string' ? previous.id_token : '');
  const who = codexIdentity(idToken);
  const accountId = who.accountId ?? (typeof previous?.account_id === 'string' ? previous.account_id : '');
  const email = who.email ?? (typeof previous?.email === 'string' ? previous.email : '');
  const record: AuthRecord = {
    ...previous,
    type: 'codex',
    id_token: idToken,
    access_token: tokens.access_token,
    refresh_token: tokens.refresh_token,
    account_id: accountId,
    last_refresh: new Date(now).toISOString(),
    email,
    expired: new Date(expiryOf(tokens, now)).toISOString(),
  };
  return { file: codexFileName(accountId, email, who.plan), record };
}

export function codexFileName(accountId: string, email: string, plan: string | null): string {
  const hash = createHash('sha256').update(accountId).digest('hex').slice(0, 8);
  return `codex-${hash}-${safePart(email || 'account')}${plan ? `-${safePart(plan)}` : ''}.json`;
}

/** The access token's `exp`, else `expires_in`, else an hour (what the token endpoint used to give). */
function expiryOf(tokens: CodexTokens, now: number): number {
  const exp = jwtClaims(tokens.access_token)?.exp;
  if (typeof exp === 'number') return exp * 1000;
  return now + (tokens.expires_in ?? 3600) * 1000;
}

function safePart(text: string): string {
  return text.replace(/[^A-Za-z0-9@._+-]/g, '_').replace(/\.\.+/g, '.');
}
