import type { AuthRecord } from '../auth-store.js';
import type { CodeFlowProvider } from '../code-flow.js';
import { CLOUD_CODE, loadCodeAssist, onboardUser, projectOf, tierToOnboard, type CloudCodeCall, type OnboardPolling } from '../google/cloud-code.js';
import { exchangeGoogleCode, GOOGLE, googleAuthorizeUrl, googleClient, googleEmail, type GoogleClient, type GoogleTokens } from '../google/google-oauth.js';
import { ProviderRefusal } from '../errors.js';
import type { Outbound } from '../outbound.js';

/**
 * Antigravity's public Google client and its sign-in (reference §2). The secret ships inside
 * Antigravity and many open-source tools; CLIProxyAPI's env variables override both.
 */
export const AGY = {
  client: { id: '1071006060591-tmhssin2h21lcre235vtolojh4g403ep.apps.googleusercontent.com', secret: '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' } satisfies GoogleClient,
  envPrefix: 'CLIPROXY_ANTIGRAVITY_OAUTH',
  scopes: [
    'https://www.googleapis.com/auth/cloud-platform',
    'https://www.googleapis.com/auth/userinfo.email',
    'https://www.googleapis.com/auth/userinfo.profile',
    'https://www.googleapis.com/auth/cclog',
    'https://www.googleapis.com/auth/experimentsandconfigs',
  ],
  port: 51121,
  callbackPath: '/oauth-callback',
  /** CLIProxyAPI: onboardUser asked up to 5 times, 2 s apart. */
  onboard: { attempts: 5, intervalMs: 2000 } satisfies OnboardPolling,
  /** The fallback Antigravity version of CLIProxyAPI main (reference §2); the binary keeps its own current. */
  userAgent: 'antigravity/hub/2.9.1 darwin/arm64',
} as const;

export function agyClient(env: NodeJS.ProcessEnv): GoogleClient {
  return googleClient(AGY.client, env, AGY.envPrefix);
}

export function agyRedirectUri(port: number): string {
  return `http://localhost:${port}${AGY.callbackPath}`;
}

/** Google OAuth with Antigravity's public client, no PKCE, on the loopback callback. */
export const AGY_CODE_FLOW: CodeFlowProvider = {
  port: AGY.port,
  plan: ({ port, state, http, env, now, onboardIntervalMs }) => {
    const redirectUri = agyRedirectUri(port);
    return {
      callbackPath: AGY.callbackPath,
      redirectUri,
      url: googleAuthorizeUrl({ client: agyClient(env), redirectUri, scopes: AGY.scopes, state }),
      complete: (code) => completeAgy({ http, env, now: now(), code, redirectUri, onboardIntervalMs }),
    };
  },
};

export interface AgyCompletion {
  http: Outbound;
  env: NodeJS.ProcessEnv;
  now: number;
  code: string;
  redirectUri: string;
  /** Between onboardUser polls; tests shorten it. */
  onboardIntervalMs?: number;
}

/**
 * After the callback: the code exchange, userinfo v2 → e-mail, loadCodeAssist → project, else
 * onboardUser until done. No project → the sign-in fails (the binary could not use the account).
 */
export async function completeAgy(input: AgyCompletion): Promise<{ file: string; record: AuthRecord }> {
  const tokens = await exchangeGoogleCode(input.http, 'agy', { client: agyClient(input.env), code: input.code, redirectUri: input.redirectUri });
  const email = await googleEmail(input.http, 'agy', GOOGLE.userinfoV2, tokens.access_token);
  const project = await agyProject(input, tokens.access_token);
  return agyRecord(tokens, email, project, input.now);
}

async function agyProject(input: AgyCompletion, accessToken: string): Promise<string> {
  const call = (base: string, headers: Record<string, string>): CloudCodeCall => ({ http: input.http, provider: 'agy', base, accessToken, headers });
  const load = await loadCodeAssist(call(CLOUD_CODE.prod, { 'user-agent': AGY.userAgent }), { metadata: { ideType: 'ANTIGRAVITY' } });
  const loaded = projectOf(load);
  if (loaded) return loaded;
  const onboarded = await onboardUser(
    call(CLOUD_CODE.daily, { 'user-agent': `${AGY.userAgent} google-api-nodejs-client/10.3.0`, 'x-goog-api-client': 'gl-node/22.21.1' }),
    { tier_id: tierToOnboard(load, 'free-tier', true), metadata: { ide_type: 'ANTIGRAVITY', ide_version: '2.9.1', ide_name: 'antigravity' } },
    { attempts: AGY.onboard.attempts, intervalMs: input.onboardIntervalMs ?? AGY.onboard.intervalMs },
  );
  const project = projectOf(onboarded);
  if (!project) {
    throw new ProviderRefusal('agy', 'Google provisioned no Cloud Code project for this account. Sign in to the Antigravity app once to provision it, then sign in here again');
  }
  return project;
}

/** CLIProxyAPI's antigravity file (reference §2): `antigravity-<email>.json`. */
export function agyRecord(tokens: GoogleTokens, email: string, project: string, now: number): { file: string; record: AuthRecord } {
  return {
    file: `antigravity-${email.replace(/[^A-Za-z0-9@._+-]/g, '_').replace(/\.\.+/g, '.')}.json`,
    record: {
      type: 'antigravity',
      access_token: tokens.access_token,
      refresh_token: tokens.refresh_token,
      expires_in: tokens.expires_in,
      timestamp: now,
      expired: new Date(now + tokens.expires_in * 1000).toISOString(),
      email,
      project_id: project,
    },
  };
}
