import { isRecord } from '../../../infra/json-checks.js';
import { ProviderRefusal } from '../errors.js';
import { providerReason, type Outbound } from '../outbound.js';

/** Google's OAuth endpoints (reference §2, §3): authorization code, no PKCE, form token endpoint. */
export const GOOGLE = {
  authorize: 'https://accounts.google.com/o/oauth2/v2/auth',
  token: 'https://oauth2.googleapis.com/token',
  /** agy reads the e-mail from v2, the Gemini CLI from v1 (both answer `{email, …}`). */
  userinfoV2: 'https://www.googleapis.com/oauth2/v2/userinfo?alt=json',
  userinfoV1: 'https://www.googleapis.com/oauth2/v1/userinfo?alt=json',
} as const;

/** A public desktop client: its id and secret ship inside the vendor's app, so they are not secrets. */
export interface GoogleClient {
  id: string;
  secret: string;
}

/** The client, with the environment overrides CLIProxyAPI honours (`<prefix>_CLIENT_ID` / `_SECRET`). */
export function googleClient(defaults: GoogleClient, env: NodeJS.ProcessEnv, prefix: string): GoogleClient {
  const pick = (name: string, fallback: string) => (env[name] ?? '').trim() || fallback;
  return { id: pick(`${prefix}_CLIENT_ID`, defaults.id), secret: pick(`${prefix}_CLIENT_SECRET`, defaults.secret) };
}

export function googleAuthorizeUrl(input: { client: GoogleClient; redirectUri: string; scopes: readonly string[]; state: string }): string {
  const q = new URLSearchParams({
    client_id: input.client.id,
    redirect_uri: input.redirectUri,
    response_type: 'code',
    scope: input.scopes.join(' '),
    state: input.state,
    access_type: 'offline',
    prompt: 'consent',
  });
  return `${GOOGLE.authorize}?${q.toString()}`;
}

export interface GoogleTokens {
  access_token: string;
  refresh_token: string;
  token_type: string;
  /** Seconds, as Google answers it (3599 typically). */
  expires_in: number;
  scope?: string;
}

/** The code exchange; a refusal names Google and carries its reason (`invalid_grant: …`). */
export async function exchangeGoogleCode(http: Outbound, provider: string, input: { client: GoogleClient; code: string; redirectUri: string }): Promise<GoogleTokens> {
  const answer = await http(provider, GOOGLE.token, {
    method: 'POST',
    form: { code: input.code, client_id: input.client.id, client_secret: input.client.secret, redirect_uri: input.redirectUri, grant_type: 'authorization_code' },
  });
  const b = answer.body;
  if (answer.status !== 200 || !isRecord(b)) throw new ProviderRefusal(provider, `Google refused the code exchange (${providerReason(answer)})`, answer.status);
  if (typeof b.access_token !== 'string' || b.access_token === '') throw new ProviderRefusal(provider, 'Google answered the code exchange without an access_token', answer.status);
  // prompt=consent makes Google issue one every time; without it the binary could not refresh.
  if (typeof b.refresh_token !== 'string' || b.refresh_token === '') {
    throw new ProviderRefusal(provider, 'Google answered without a refresh_token; remove Switchboard from your Google account\'s third-party access and sign in again', answer.status);
  }
  return {
    access_token: b.access_token,
    refresh_token: b.refresh_token,
    token_type: typeof b.token_type === 'string' ? b.token_type : 'Bearer',
    expires_in: typeof b.expires_in === 'number' && b.expires_in > 0 ? b.expires_in : 3600,
    ...(typeof b.scope === 'string' ? { scope: b.scope } : {}),
  };
}

/** The signed-in user's e-mail from a userinfo endpoint. */
export async function googleEmail(http: Outbound, provider: string, url: string, accessToken: string): Promise<string> {
  const answer = await http(provider, url, { method: 'GET', headers: { authorization: `Bearer ${accessToken}` } });
  const b = answer.body;
  if (answer.status !== 200 || !isRecord(b)) throw new ProviderRefusal(provider, `Google's userinfo was refused (${providerReason(answer)})`, answer.status);
  if (typeof b.email !== 'string' || !b.email.includes('@')) throw new ProviderRefusal(provider, "Google's userinfo named no e-mail (the userinfo.email scope was not granted)", answer.status);
  return b.email;
}
