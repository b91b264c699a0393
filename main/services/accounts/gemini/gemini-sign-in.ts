import { isRecord } from '../../../infra/json-checks.js';
import type { AuthRecord } from '../auth-store.js';
import type { CodeFlowProvider } from '../code-flow.js';
import { AccountsError, ProviderRefusal } from '../errors.js';
import { CLOUD_CODE, loadCodeAssist, onboardUser, projectOf, tierToOnboard, type CodeAssistAnswer, type OnboardPolling } from '../google/cloud-code.js';
import { exchangeGoogleCode, GOOGLE, googleAuthorizeUrl, googleClient, googleEmail, type GoogleClient, type GoogleTokens } from '../google/google-oauth.js';
import type { Outbound } from '../outbound.js';
import { GEMINI_CLI_CLIENT, GEMINI_CLIENT_ENV_PREFIX, GEMINI_SCOPES } from './gemini-import.js';

/** Code Assist Standard/Enterprise sign-in with the Gemini CLI's public client (reference §3); env variables override it. */
export const GEMINI = {
  client: GEMINI_CLI_CLIENT satisfies GoogleClient,
  envPrefix: GEMINI_CLIENT_ENV_PREFIX,
  port: 8085,
  callbackPath: '/oauth2callback',
  /** Google One mode's pace in CLIProxyAPI (2 s, 30 s in all), so the browser tab is not kept long. */
  onboard: { attempts: 15, intervalMs: 2000 } satisfies OnboardPolling,
  metadata: { ideType: 'IDE_UNSPECIFIED', platform: 'PLATFORM_UNSPECIFIED', pluginType: 'GEMINI' },
} as const;

/** A GCP project id as Cloud Code takes it (lower-case ids, and the older `domain:project` form). */
export const GEMINI_PROJECT_PATTERN = /^[a-z][a-z0-9.:-]{4,98}[a-z0-9]$/;

/** Why a Gemini sign-in without a Code Assist Standard/Enterprise project is refused (decisions §4.1). */
export const GEMINI_PROJECT_NEEDED =
  'Google retired Gemini CLI sign-in for individual, free, Google One and AI Pro/Ultra accounts on 2026-06-18. Code Assist Standard/Enterprise users sign in with their Google Cloud project id ({"projectId": "<id>"}, `switchboard login gemini --project <id>`); everyone else can import ~/.gemini/oauth_creds.json (POST /api/accounts/gemini/import, `switchboard accounts import gemini`).';

/** The project id a gemini sign-in was given, trimmed; missing or malformed → 400 saying why. */
export function geminiProject(projectId: string | undefined): string {
  const project = (projectId ?? '').trim();
  if (project === '') throw new AccountsError('project-id-required', GEMINI_PROJECT_NEEDED);
  if (!GEMINI_PROJECT_PATTERN.test(project)) {
    throw new AccountsError('invalid-project-id', `"${project.slice(0, 100)}" is not a Google Cloud project id (6 to 100 characters: lower-case letters, digits, "-", "." and ":", starting with a letter)`);
  }
  return project;
}

export function geminiClient(env: NodeJS.ProcessEnv): GoogleClient {
  return googleClient(GEMINI.client, env, GEMINI.envPrefix);
}

export function geminiRedirectUri(port: number): string {
  return `http://localhost:${port}${GEMINI.callbackPath}`;
}

/** Google OAuth with the Gemini CLI's client, for the project the request names (checked first). */
export const GEMINI_CODE_FLOW: CodeFlowProvider = {
  port: GEMINI.port,
  plan: ({ port, state, http, env, now, onboardIntervalMs, projectId }) => {
    const project = geminiProject(projectId);
    const redirectUri = geminiRedirectUri(port);
    return {
      callbackPath: GEMINI.callbackPath,
      redirectUri,
      url: googleAuthorizeUrl({ client: geminiClient(env), redirectUri, scopes: GEMINI_SCOPES, state }),
      complete: (code) => completeGemini({ http, env, now: now(), code, redirectUri, projectId: project, onboardIntervalMs }),
    };
  },
};

export interface GeminiCompletion {
  http: Outbound;
  env: NodeJS.ProcessEnv;
  now: number;
  code: string;
  redirectUri: string;
  projectId: string;
  onboardIntervalMs?: number;
}

/**
 * After the callback: the code exchange, userinfo v1 → e-mail, loadCodeAssist with the project,
 * a consumer account refused, onboardUser until done; the backend's project id is kept.
 */
export async function completeGemini(input: GeminiCompletion): Promise<{ file: string; record: AuthRecord }> {
  const client = geminiClient(input.env);
  const tokens = await exchangeGoogleCode(input.http, 'gemini', { client, code: input.code, redirectUri: input.redirectUri });
  const email = await googleEmail(input.http, 'gemini', GOOGLE.userinfoV1, tokens.access_token);
  const call = { http: input.http, provider: 'gemini', base: CLOUD_CODE.prod, accessToken: tokens.access_token };
  const load = await loadCodeAssist(call, { cloudaicompanionProject: input.projectId, metadata: GEMINI.metadata });
  const tierId = tierToOnboard(load, 'legacy-tier', false);
  const consumer = consumerTier(load, tierId);
  if (consumer) throw new ProviderRefusal('gemini', `this is a consumer account (Code Assist tier "${consumer}"). ${GEMINI_PROJECT_NEEDED}`);
  const onboarded = await onboardUser(
    call,
    { tierId, cloudaicompanionProject: input.projectId, metadata: GEMINI.metadata },
    { attempts: GEMINI.onboard.attempts, intervalMs: input.onboardIntervalMs ?? GEMINI.onboard.intervalMs },
  );
  return geminiSignedInRecord(tokens, client, email, projectOf(onboarded) || input.projectId, input.now);
}

/**
 * The tier that shows a consumer account, whose sign-in Google retired: `free-tier` (individual,
 * free) as the current tier or the one it would be onboarded to, or a Google One paid tier (`g1-…`,
 * AI Pro/Ultra). Standard/Enterprise accounts are `standard-tier` / `enterprise-tier` (or `legacy-tier`).
 */
export function consumerTier(load: CodeAssistAnswer, tierId: string): string | null {
  const idOf = (t: unknown) => (isRecord(t) && typeof t.id === 'string' ? t.id : '');
  const current = idOf(load.currentTier);
  const paid = idOf(load.paidTier);
  if (/^g1-/.test(paid)) return paid;
  if (current === 'free-tier' || (current === '' && tierId === 'free-tier')) return 'free-tier';
  return null;
}

/** CLIProxyAPI's gemini file (reference §3): `gemini-<email>-<project>.json`, the client inside the token. */
export function geminiSignedInRecord(tokens: GoogleTokens, client: GoogleClient, email: string, project: string, now: number): { file: string; record: AuthRecord } {
  const safe = (s: string) => s.replace(/[^A-Za-z0-9_.@-]/g, '_').replace(/\.\.+/g, '.');
  return {
    file: `gemini-${safe(email)}-${safe(project)}.json`,
    record: {
      type: 'gemini',
      email,
      project_id: project,
      auto: false,
      checked: true,
      token: {
        access_token: tokens.access_token,
        token_type: tokens.token_type,
        refresh_token: tokens.refresh_token,
        expiry: new Date(now + tokens.expires_in * 1000).toISOString(),
        token_uri: GOOGLE.token,
        client_id: client.id,
        client_secret: client.secret,
        scopes: [...GEMINI_SCOPES],
        universe_domain: 'googleapis.com',
      },
    },
  };
}
