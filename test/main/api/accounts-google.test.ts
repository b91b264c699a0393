import fs from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ACCOUNT_MODELS } from '../../../main/infra/account-models.js';
import { AGY_CLIENT, GEMINI_CLIENT, googleOverridesYaml, startFakeGoogle, type FakeGoogle } from '../../fixtures/fake-google.js';
import { startTestApp, type TestApp } from '../../helpers/app.js';
import { freePort } from '../../helpers/free-port.js';
import { OFFLINE_CONFIG_YAML } from '../../helpers/offline-config.js';

/** The agy and gemini sign-ins of decisions §4.1 against a fake Google on loopback (reference §2, §3). */
let app: TestApp;
let google: FakeGoogle;
let agyPort: number;
let geminiPort: number;

beforeAll(async () => {
  google = await startFakeGoogle();
  agyPort = await freePort();
  geminiPort = await freePort();
  app = await startTestApp({
    before: async ({ home }) => {
      await fs.mkdir(path.join(home, 'proxy'), { recursive: true });
      await fs.writeFile(path.join(home, 'config.yaml'), OFFLINE_CONFIG_YAML + googleOverridesYaml(google.origin));
      await fs.writeFile(path.join(home, 'proxy', 'config.yaml'), `providers:\n  agy:\n    oauth_port: ${agyPort}\n  gemini:\n    oauth_port: ${geminiPort}\n`);
    },
  });
});
afterAll(async () => {
  await app.stop();
  await google.close();
});
beforeEach(() => {
  google.requests.length = 0;
  google.loadAnswer = { currentTier: { id: 'standard-tier' }, cloudaicompanionProject: 'agy-project-1' };
  google.onboardPending = 1;
  google.onboardProject = { id: 'onboarded-project-7' };
  google.authorizeError = null;
  google.tokenFailure = null;
});

const authDir = () => path.join(app.home, 'proxy', 'auth');
const readAuth = async (file: string) => JSON.parse(await fs.readFile(path.join(authDir(), file), 'utf8')) as Record<string, any>;
const authFiles = async () => (await fs.readdir(authDir()).catch(() => [] as string[])).filter((f) => f.endsWith('.json')).sort();

/** The browser's part: Google's authorize page redirects to the redirect URI with code and state. */
async function authorize(url: string): Promise<string> {
  const res = await fetch(url, { redirect: 'manual' });
  expect(res.status).toBe(302);
  return res.headers.get('location')!;
}

/** The browser loading the loopback callback (localhost → 127.0.0.1, where the listener binds). */
const loadCallback = (location: string) => fetch(location.replace('//localhost:', '//127.0.0.1:'));

async function startAgy(method: 'browser' | 'paste'): Promise<{ signInId: string; url: string }> {
  const start = await app.json('POST', '/api/accounts/agy/sign-in', { acknowledge: true, method });
  expect(start.status).toBe(200);
  return start.body;
}

async function pasteAgy(): Promise<{ signInId: string; body: any }> {
  const { signInId, url } = await startAgy('paste');
  const done = await app.json('POST', `/api/accounts/sign-in/${signInId}/callback`, { url: await authorize(url) });
  expect(done.status).toBe(200);
  return { signInId, body: done.body };
}

describe('agy sign-in', () => {
  it('asks for the acknowledgement, then the browser path: Google authorize URL, loopback callback, the exact auth file, the account listed, the profile made', async () => {
    expect(await app.json('POST', '/api/accounts/agy/sign-in', {})).toMatchObject({ status: 400, body: { error: 'Acknowledgement required', message: expect.stringContaining('banned'), provider: 'agy' } });
    const { signInId, url } = await startAgy('browser');
    const u = new URL(url);
    expect(`${u.origin}${u.pathname}`).toBe(`${google.origin}/o/oauth2/v2/auth`);
    expect(Object.fromEntries(u.searchParams)).toEqual({
      client_id: AGY_CLIENT.id,
      redirect_uri: `http://localhost:${agyPort}/oauth-callback`,
      response_type: 'code',
      scope: ['cloud-platform', 'userinfo.email', 'userinfo.profile', 'cclog', 'experimentsandconfigs'].map((s) => `https://www.googleapis.com/auth/${s}`).join(' '),
      state: expect.stringMatching(/^[0-9a-f]{32}$/),
      access_type: 'offline',
      prompt: 'consent',
    });
    expect((await app.json('GET', `/api/accounts/sign-in/${signInId}`)).body).toEqual({ status: 'waiting' });

    const page = await loadCallback(await authorize(url));
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('Signed in');
    const state = (await app.json('GET', `/api/accounts/sign-in/${signInId}`)).body;
    expect(state).toMatchObject({ status: 'ok', account: { provider: 'agy', accountId: 'pilot@example.com', file: 'antigravity-pilot@example.com.json', status: 'active', models: [...ACCOUNT_MODELS.agy.models] } });

    const file = path.join(authDir(), 'antigravity-pilot@example.com.json');
    expect((await fs.stat(file)).mode & 0o777).toBe(0o600);
    const record = await readAuth('antigravity-pilot@example.com.json');
    expect(Object.keys(record).sort()).toEqual(['access_token', 'email', 'expired', 'expires_in', 'project_id', 'refresh_token', 'timestamp', 'type']);
    expect(record).toMatchObject({ type: 'antigravity', expires_in: 3599, email: 'pilot@example.com', project_id: 'agy-project-1', timestamp: expect.any(Number) });
    expect(google.accessTokens.has(record.access_token)).toBe(true);
    expect(google.refreshTokens.has(record.refresh_token)).toBe(true);
    expect(Date.parse(record.expired)).toBe(record.timestamp + 3599_000);

    // What went to Google: the form exchange with the public client (no PKCE), userinfo v2, loadCodeAssist.
    const [token] = google.calls('/token');
    expect(token!.headers['content-type']).toContain('application/x-www-form-urlencoded');
    expect(token!.fields).toEqual({ code: expect.stringMatching(/^4\/0A/), client_id: AGY_CLIENT.id, client_secret: AGY_CLIENT.secret, redirect_uri: `http://localhost:${agyPort}/oauth-callback`, grant_type: 'authorization_code' });
    expect(google.calls('/oauth2/v2/userinfo')).toHaveLength(1);
    const [load] = google.calls('/v1internal:loadCodeAssist');
    expect(load!.fields).toEqual({ metadata: { ideType: 'ANTIGRAVITY' } });
    expect(load!.headers.authorization).toBe(`Bearer ${record.access_token}`);
    expect(load!.headers['user-agent']).toMatch(/^antigravity\//);
    expect(google.calls('/v1internal:onboardUser')).toHaveLength(0);

    const listed = (await app.json('GET', '/api/accounts')).body.accounts.find((a: any) => a.provider === 'agy');
    expect(listed).toMatchObject({ accountId: 'pilot@example.com', status: 'active', expiresAt: Date.parse(record.expired), lastRefresh: record.timestamp });
    const profile = await app.json('GET', '/api/settings/agy?raw=true');
    expect(profile.status).toBe(200);
    expect(profile.body.settings.env).toMatchObject({ PROVIDER_MODEL: ACCOUNT_MODELS.agy.tiers.default, PROVIDER_DEFAULT_HAIKU_MODEL: ACCOUNT_MODELS.agy.tiers.haiku });
    // The listener lived only during the sign-in.
    await expect(fetch(`http://127.0.0.1:${agyPort}/oauth-callback`)).rejects.toThrow();
  });

  it('paste: the pasted redirect completes it with no listener; no project from loadCodeAssist → onboardUser polled until done', async () => {
    google.loadAnswer = { allowedTiers: [{ id: 'legacy-tier' }, { id: 'free-tier', isDefault: true }] };
    const { signInId, url } = await startAgy('paste');
    await expect(fetch(`http://127.0.0.1:${agyPort}/oauth-callback`)).rejects.toThrow();
    const done = await app.json('POST', `/api/accounts/sign-in/${signInId}/callback`, { url: await authorize(url) });
    expect(done).toMatchObject({ status: 200, body: { status: 'ok', account: { provider: 'agy', file: 'antigravity-pilot@example.com.json' } } });
    expect((await readAuth('antigravity-pilot@example.com.json')).project_id).toBe('onboarded-project-7');
    const onboard = google.calls('/v1internal:onboardUser');
    expect(onboard).toHaveLength(2);
    expect(onboard[0]!.fields).toEqual({ tier_id: 'free-tier', metadata: { ide_type: 'ANTIGRAVITY', ide_version: expect.any(String), ide_name: 'antigravity' } });
    expect(onboard[0]!.headers['x-goog-api-client']).toBe('gl-node/22.21.1');
    expect(onboard[0]!.headers['user-agent']).toMatch(/^antigravity\/.* google-api-nodejs-client\//);
  });

  it('no project even after onboarding: the sign-in ends in error telling to open the Antigravity app once; nothing is written', async () => {
    const before = await authFiles();
    google.loadAnswer = {};
    google.onboardPending = 0;
    google.onboardProject = null;
    const { body } = await pasteAgy();
    expect(body).toEqual({ status: 'error', error: expect.stringMatching(/^agy: .*Sign in to the Antigravity app once to provision/) });
    expect(await authFiles()).toEqual(before);
  });

  it('a callback without this sign-in\'s state is refused (pasted: 400; loopback: a 400 page) and the sign-in keeps waiting', async () => {
    const { signInId, url } = await startAgy('browser');
    const forged = new URL(await authorize(url));
    forged.searchParams.set('state', 'forged');
    expect(await app.json('POST', `/api/accounts/sign-in/${signInId}/callback`, { url: forged.toString() })).toMatchObject({ status: 400, body: { error: 'Invalid callback', message: expect.stringContaining('state') } });
    const page = await loadCallback(forged.toString());
    expect(page.status).toBe(400);
    expect((await app.json('GET', `/api/accounts/sign-in/${signInId}`)).body).toEqual({ status: 'waiting' });
    expect(google.calls('/token')).toHaveLength(0);
    expect((await app.json('DELETE', `/api/accounts/sign-in/${signInId}`)).body.status).toBe('cancelled');
  });

  it("Google's refusal in the callback (error=access_denied) ends the sign-in in error with the reason", async () => {
    google.authorizeError = 'access_denied';
    const { signInId, url } = await startAgy('browser');
    const page = await loadCallback(await authorize(url));
    expect(page.status).toBe(400);
    expect((await app.json('GET', `/api/accounts/sign-in/${signInId}`)).body).toEqual({ status: 'error', error: 'agy: the provider refused the sign-in (access_denied)' });
    expect(google.calls('/token')).toHaveLength(0);
  });

  it('the token endpoint answering 400 ends the sign-in in error naming Google and its reason; nothing is written', async () => {
    const before = await authFiles();
    google.tokenFailure = 400;
    const { body } = await pasteAgy();
    expect(body).toEqual({ status: 'error', error: 'agy: Google refused the code exchange (invalid_grant: Bad Request)' });
    expect(await authFiles()).toEqual(before);
  });

  it('device is not a Google method: 400 Invalid sign-in method', async () => {
    expect(await app.json('POST', '/api/accounts/agy/sign-in', { method: 'device' })).toMatchObject({ status: 400, body: { error: 'Invalid sign-in method', message: expect.stringContaining('browser') } });
  });

  it('Switchboard does not refresh agy files (the binary owns their refresh): 400 Sign-in not available, the file unchanged', async () => {
    await pasteAgy();
    const before = await fs.readFile(path.join(authDir(), 'antigravity-pilot@example.com.json'), 'utf8');
    expect(await app.json('POST', '/api/accounts/agy/pilot%40example.com/refresh')).toMatchObject({ status: 400, body: { error: 'Sign-in not available', message: expect.stringContaining('CLIProxyAPI') } });
    expect(await fs.readFile(path.join(authDir(), 'antigravity-pilot@example.com.json'), 'utf8')).toBe(before);
    expect(google.calls('/token').filter((r) => r.fields.grant_type === 'refresh_token')).toHaveLength(0);
  });
});

describe('gemini sign-in (Code Assist Standard/Enterprise)', () => {
  it('without a projectId: 400 Project ID required explaining the retirement and the import; a malformed one: 400 Invalid project ID', async () => {
    const missing = await app.json('POST', '/api/accounts/gemini/sign-in', {});
    expect(missing).toMatchObject({ status: 400, body: { error: 'Project ID required' } });
    expect(missing.body.message).toContain('2026-06-18');
    expect(missing.body.message).toContain('Code Assist Standard/Enterprise');
    expect(missing.body.message).toContain('~/.gemini/oauth_creds.json');
    expect(await app.json('POST', '/api/accounts/gemini/sign-in', { projectId: '   ' })).toMatchObject({ status: 400, body: { error: 'Project ID required' } });
    for (const bad of ['Has Spaces', '../etc', 'x', '9starts-with-digit']) {
      expect(await app.json('POST', '/api/accounts/gemini/sign-in', { projectId: bad })).toMatchObject({ status: 400, body: { error: 'Invalid project ID' } });
    }
    expect(await app.json('POST', '/api/accounts/gemini/sign-in', { projectId: 42 })).toMatchObject({ status: 400, body: { error: 'Invalid project ID' } });
    expect(await app.json('POST', '/api/accounts/gemini/sign-in', { projectId: 'p'.repeat(201) })).toMatchObject({ status: 400, body: { error: 'Invalid project ID' } });
    expect(await app.json('POST', '/api/accounts/gemini/sign-in', { projectId: 'my-team-project', method: 'fax' })).toMatchObject({ status: 400, body: { error: 'Invalid sign-in method' } });
  });

  it('with a projectId: the Gemini CLI client, loopback callback, loadCodeAssist with the project, onboardUser; the backend\'s project id is kept in the file', async () => {
    google.loadAnswer = { allowedTiers: [{ id: 'standard-tier', isDefault: true }] };
    google.onboardPending = 0;
    google.onboardProject = { id: 'backend-proj-9', name: 'projects/backend-proj-9' };
    const start = await app.json('POST', '/api/accounts/gemini/sign-in', { projectId: 'my-team-project' });
    expect(start.status).toBe(200);
    const q = new URL(start.body.url).searchParams;
    expect(Object.fromEntries(q)).toMatchObject({
      client_id: GEMINI_CLIENT.id,
      redirect_uri: `http://localhost:${geminiPort}/oauth2callback`,
      scope: ['cloud-platform', 'userinfo.email', 'userinfo.profile'].map((s) => `https://www.googleapis.com/auth/${s}`).join(' '),
      access_type: 'offline',
      prompt: 'consent',
    });
    const page = await loadCallback(await authorize(start.body.url));
    expect(page.status).toBe(200);
    const state = (await app.json('GET', `/api/accounts/sign-in/${start.body.signInId}`)).body;
    expect(state).toMatchObject({ status: 'ok', account: { provider: 'gemini', file: 'gemini-pilot@example.com-backend-proj-9.json', models: [...ACCOUNT_MODELS.gemini.models] } });
    const record = await readAuth('gemini-pilot@example.com-backend-proj-9.json');
    expect(record).toEqual({
      type: 'gemini',
      email: 'pilot@example.com',
      project_id: 'backend-proj-9',
      auto: false,
      checked: true,
      token: {
        access_token: expect.any(String),
        token_type: 'Bearer',
        refresh_token: expect.any(String),
        expiry: expect.any(String),
        token_uri: 'https://oauth2.googleapis.com/token',
        client_id: GEMINI_CLIENT.id,
        client_secret: GEMINI_CLIENT.secret,
        scopes: ['cloud-platform', 'userinfo.email', 'userinfo.profile'].map((s) => `https://www.googleapis.com/auth/${s}`),
        universe_domain: 'googleapis.com',
      },
    });
    expect(google.refreshTokens.has(record.token.refresh_token)).toBe(true);
    expect(google.calls('/token')[0]!.fields).toMatchObject({ client_id: GEMINI_CLIENT.id, client_secret: GEMINI_CLIENT.secret, grant_type: 'authorization_code' });
    expect(google.calls('/oauth2/v1/userinfo')).toHaveLength(1);
    const metadata = { ideType: 'IDE_UNSPECIFIED', platform: 'PLATFORM_UNSPECIFIED', pluginType: 'GEMINI' };
    expect(google.calls('/v1internal:loadCodeAssist')[0]!.fields).toEqual({ cloudaicompanionProject: 'my-team-project', metadata });
    expect(google.calls('/v1internal:onboardUser')[0]!.fields).toEqual({ tierId: 'standard-tier', cloudaicompanionProject: 'my-team-project', metadata });
    expect((await app.json('GET', '/api/accounts')).body.accounts.find((a: any) => a.provider === 'gemini')).toMatchObject({ accountId: 'pilot@example.com', status: 'active' });
  });

  it('a consumer account (free tier) is refused after Google answers, with the same explanation; nothing is written', async () => {
    const before = await authFiles();
    google.loadAnswer = { currentTier: { id: 'free-tier' }, allowedTiers: [{ id: 'free-tier', isDefault: true }] };
    const start = await app.json('POST', '/api/accounts/gemini/sign-in', { projectId: 'my-team-project', method: 'paste' });
    const done = await app.json('POST', `/api/accounts/sign-in/${start.body.signInId}/callback`, { url: await authorize(start.body.url) });
    expect(done).toMatchObject({ status: 200, body: { status: 'error', error: expect.stringMatching(/^gemini: this is a consumer account \(Code Assist tier "free-tier"\)\. Google retired .*2026-06-18/) } });
    expect(done.body.error).toContain('~/.gemini/oauth_creds.json');
    expect(google.calls('/v1internal:onboardUser')).toHaveLength(0);
    expect(await authFiles()).toEqual(before);
  });
});
