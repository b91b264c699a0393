import { isRecord } from '../../../infra/json-checks.js';
import type { AuthRecord } from '../auth-store.js';
import { googleClient } from '../google/google-oauth.js';

/**
 * The Gemini CLI's public OAuth client (reference §3). Its secret ships inside the Gemini CLI; it is
 * written into the file's token (as CLIProxyAPI's login does) so the binary can refresh it.
 */
export const GEMINI_CLI_CLIENT = { id: '681255809395-oo8ft2oprdrnp9e3aqf6av3hmdib135j.apps.googleusercontent.com', secret: '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' } as const;
export const GEMINI_CLI_CLIENT_ID = GEMINI_CLI_CLIENT.id;
/** CLIProxyAPI's environment overrides of the client: `<prefix>_CLIENT_ID` / `_CLIENT_SECRET`. */
export const GEMINI_CLIENT_ENV_PREFIX = 'CLIPROXY_GEMINI_OAUTH';
export const GEMINI_SCOPES = [
  'https://www.googleapis.com/auth/cloud-platform',
  'https://www.googleapis.com/auth/userinfo.email',
  'https://www.googleapis.com/auth/userinfo.profile',
];

/** Where the Gemini CLI keeps its sign-in: `~/.gemini/oauth_creds.json` (and the active e-mail in google_accounts.json). */
export function geminiCliAuthPaths(home: string): string[] {
  return [`${home}/.gemini/oauth_creds.json`];
}

export function geminiAccountsPath(credsFile: string): string {
  return credsFile.replace(/oauth_creds\.json$/, 'google_accounts.json');
}

export interface GeminiCliCreds {
  access_token: string;
  refresh_token: string;
  token_type: string;
  /** ms since the epoch, when the CLI recorded it. */
  expiry_date: number | null;
  email: string | null;
}

/**
 * The Gemini CLI's oauth_creds.json: `{access_token, refresh_token, scope, token_type, id_token,
 * expiry_date (ms)}`. The e-mail comes from the id_token's payload, no network needed.
 */
export function geminiCredsOfCliFile(parsed: unknown): GeminiCliCreds | null {
  if (!isRecord(parsed)) return null;
  if (typeof parsed.access_token !== 'string' || typeof parsed.refresh_token !== 'string' || parsed.refresh_token === '') return null;
  return {
    access_token: parsed.access_token,
    refresh_token: parsed.refresh_token,
    token_type: typeof parsed.token_type === 'string' ? parsed.token_type : 'Bearer',
    expiry_date: typeof parsed.expiry_date === 'number' ? parsed.expiry_date : null,
    email: typeof parsed.id_token === 'string' ? emailOfIdToken(parsed.id_token) : null,
  };
}

/** The `active` e-mail of the CLI's google_accounts.json (`{"active": "<email>", "old": [...]}`). */
export function activeEmailOf(parsed: unknown): string | null {
  return isRecord(parsed) && typeof parsed.active === 'string' && parsed.active.includes('@') ? parsed.active : null;
}

function emailOfIdToken(token: string): string | null {
  const payload = token.split('.')[1];
  if (!payload) return null;
  try {
    const claims: unknown = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
    return isRecord(claims) && typeof claims.email === 'string' ? claims.email : null;
  } catch {
    return null;
  }
}

/**
 * CLIProxyAPI's gemini file (reference §3): `gemini-<email>-<project>.json`. The project comes from
 * GOOGLE_CLOUD_PROJECT (the variable the Gemini CLI itself reads); without it the project cannot be
 * known offline, so the file is `gemini-<email>-auto.json` with `"auto": true` and an empty
 * project_id, and the binary discovers the project (loadCodeAssist) on first use.
 */
export function geminiRecord(creds: GeminiCliCreds & { email: string }, env: NodeJS.ProcessEnv): { file: string; record: AuthRecord } {
  const project = (env.GOOGLE_CLOUD_PROJECT || env.GOOGLE_CLOUD_PROJECT_ID || '').trim();
  const client = googleClient(GEMINI_CLI_CLIENT, env, GEMINI_CLIENT_ENV_PREFIX);
  const safe = (s: string) => s.replace(/[^A-Za-z0-9_.@-]/g, '_').replace(/\.\.+/g, '.');
  return {
    file: `gemini-${safe(creds.email)}-${project ? safe(project) : 'auto'}.json`,
    record: {
      type: 'gemini',
      email: creds.email,
      project_id: project,
      auto: project === '',
      checked: false,
      token: {
        access_token: creds.access_token,
        token_type: creds.token_type,
        refresh_token: creds.refresh_token,
        ...(creds.expiry_date !== null ? { expiry: new Date(creds.expiry_date).toISOString() } : {}),
        token_uri: 'https://oauth2.googleapis.com/token',
        client_id: client.id,
        client_secret: client.secret,
        scopes: GEMINI_SCOPES,
        universe_domain: 'googleapis.com',
      },
    },
  };
}
