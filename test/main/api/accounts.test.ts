import fs from 'node:fs/promises';
import { ACCOUNT_MODELS } from '../../../main/infra/account-models.js';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../helpers/app.js';
import { freePort } from '../../helpers/free-port.js';
import { OFFLINE_CONFIG_YAML } from '../../helpers/offline-config.js';
import { openSse } from '../../helpers/sse.js';
import { overridesYaml, startFakeAccountProviders, type FakeAccountProviders } from '../../fixtures/fake-account-providers.js';

/** The accounts API of decisions §4.1 against fake auth.openai.com / GitHub on loopback. */
let app: TestApp;
let fake: FakeAccountProviders;
let port: number;

beforeAll(async () => {
  fake = await startFakeAccountProviders();
  port = await freePort();
  app = await startTestApp({
    before: async ({ home }) => {
      await fs.mkdir(path.join(home, 'proxy'), { recursive: true });
      await fs.writeFile(path.join(home, 'config.yaml'), OFFLINE_CONFIG_YAML + overridesYaml(fake.origin));
      await fs.writeFile(path.join(home, 'proxy', 'config.yaml'), `providers:\n  codex:\n    oauth_port: ${port}\n`);
    },
  });
});
afterAll(async () => {
  await app.stop();
  await fake.close();
});

const INVALID_PROVIDER = { error: 'Invalid provider', message: 'Provider must be one of: agy, gemini, codex, iflow, kiro, ghcp' };

async function followAuthorize(url: string): Promise<string> {
  const res = await fetch(url, { redirect: 'manual' });
  expect(res.status).toBe(302);
  return res.headers.get('location')!;
}

async function pasteSignIn(): Promise<{ signInId: string; location: string; body: any }> {
  const start = await app.json('POST', '/api/accounts/codex/sign-in', { method: 'paste' });
  expect(start.status).toBe(200);
  const location = await followAuthorize(start.body.url);
  const done = await app.json('POST', `/api/accounts/sign-in/${start.body.signInId}/callback`, { url: location });
  return { signInId: start.body.signInId, location, body: done };
}

describe('sign-in', () => {
  it('browser: the loopback callback completes it, the state shows ok with the account, an `account` event is sent, the codex profile is created', async () => {
    const events = await openSse(`${app.url}/api/events`);
    try {
      const start = await app.json('POST', '/api/accounts/codex/sign-in', {});
      expect(start.status).toBe(200);
      expect(start.body).toEqual({ signInId: expect.any(String), url: expect.stringContaining(`${fake.origin}/oauth/authorize?`), expiresAt: expect.any(Number) });
      expect((await app.json('GET', `/api/accounts/sign-in/${start.body.signInId}`)).body).toEqual({ status: 'waiting' });
      const location = await followAuthorize(start.body.url);
      expect(location.startsWith(`http://localhost:${port}/auth/callback?`)).toBe(true);
      const page = await fetch(location.replace('//localhost:', '//127.0.0.1:'));
      expect(page.status).toBe(200);
      expect(page.headers.get('content-type')).toContain('text/html');
      const state = await app.json('GET', `/api/accounts/sign-in/${start.body.signInId}`);
      expect(state.body).toMatchObject({ status: 'ok', account: { provider: 'codex', accountId: 'coder@example.com', status: 'active', models: [...ACCOUNT_MODELS.codex.models] } });
      await events.waitFor((c) => c.events.some((e) => e.event === 'account' && JSON.parse(e.data).status === 'ok'), 5000);
      const profile = await app.json('GET', '/api/settings/codex?raw=true');
      expect(profile.status).toBe(200);
      expect(profile.body.settings.env).toMatchObject({ PROVIDER_MODEL: 'gpt-5.4', PROVIDER_DEFAULT_OPUS_MODEL: 'gpt-5.4', PROVIDER_DEFAULT_SONNET_MODEL: 'gpt-5.4', PROVIDER_DEFAULT_HAIKU_MODEL: 'gpt-5.4-mini' });
      expect(profile.body.settings.env.PROVIDER_BASE_URL).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    } finally {
      events.close();
    }
  });

  it('paste: the pasted redirect completes it; a second paste is 409, an empty body 400, an unknown id 404', async () => {
    const { signInId, location, body } = await pasteSignIn();
    expect(body).toMatchObject({ status: 200, body: { status: 'ok', account: { provider: 'codex' } } });
    expect(await app.json('POST', `/api/accounts/sign-in/${signInId}/callback`, { url: location })).toMatchObject({ status: 409, body: { error: 'Sign-in not waiting' } });
    expect(await app.json('POST', `/api/accounts/sign-in/${signInId}/callback`, {})).toMatchObject({ status: 400, body: { error: 'Missing required field: url' } });
    expect(await app.json('GET', '/api/accounts/sign-in/nope')).toMatchObject({ status: 404, body: { error: 'Sign-in not found' } });
    expect(await app.json('DELETE', '/api/accounts/sign-in/nope')).toMatchObject({ status: 404, body: { error: 'Sign-in not found' } });
  });

  it('a pasted URL with the wrong state is 400 Invalid callback and the sign-in still waits; cancel ends it', async () => {
    const start = await app.json('POST', '/api/accounts/codex/sign-in', { method: 'paste' });
    const forged = new URL(await followAuthorize(start.body.url));
    forged.searchParams.set('state', 'forged');
    const res = await app.json('POST', `/api/accounts/sign-in/${start.body.signInId}/callback`, { url: forged.toString() });
    expect(res).toMatchObject({ status: 400, body: { error: 'Invalid callback', message: expect.stringContaining('state') } });
    expect((await app.json('GET', `/api/accounts/sign-in/${start.body.signInId}`)).body.status).toBe('waiting');
    expect(await app.json('DELETE', `/api/accounts/sign-in/${start.body.signInId}`)).toMatchObject({ status: 200, body: { status: 'cancelled' } });
  });

  it('at most 10 sign-ins wait at once: the 11th is 429, a cancelled one makes room', async () => {
    const ids: string[] = [];
    for (let i = 0; i < 10; i++) {
      const start = await app.json('POST', '/api/accounts/codex/sign-in', { method: 'paste' });
      expect(start.status).toBe(200);
      ids.push(start.body.signInId);
    }
    expect(await app.json('POST', '/api/accounts/codex/sign-in', { method: 'paste' })).toMatchObject({ status: 429, body: { error: 'Too many sign-ins' } });
    for (const id of ids) expect((await app.json('DELETE', `/api/accounts/sign-in/${id}`)).status).toBe(200);
    expect((await app.json('POST', '/api/accounts/codex/sign-in', { method: 'paste' })).status).toBe(200);
  });

  it('error rows: unknown provider, bad method, a provider without sign-in here, ghcp paste, gemini without a project', async () => {
    expect(await app.json('POST', '/api/accounts/openai/sign-in', {})).toEqual({ status: 400, body: INVALID_PROVIDER });
    expect(await app.json('POST', '/api/accounts/codex/sign-in', { method: 'carrier-pigeon' })).toMatchObject({ status: 400, body: { error: 'Invalid sign-in method' } });
    expect(await app.json('POST', '/api/accounts/iflow/sign-in', {})).toMatchObject({ status: 400, body: { error: 'Sign-in not available', message: expect.stringContaining('2026-04-17') } });
    expect(await app.json('POST', '/api/accounts/ghcp/sign-in', { method: 'paste' })).toMatchObject({ status: 400, body: { error: 'Invalid sign-in method' } });
    expect(await app.json('POST', '/api/accounts/gemini/sign-in', {})).toMatchObject({ status: 400, body: { error: 'Project ID required', message: expect.stringContaining('2026-06-18') } });
  });

  it('agy: 400 Acknowledgement required naming the ban risk until {acknowledge: true}, which is remembered', async () => {
    expect(await app.json('POST', '/api/accounts/agy/sign-in', {})).toMatchObject({ status: 400, body: { error: 'Acknowledgement required', message: expect.stringContaining('banned'), provider: 'agy' } });
    expect(await app.json('POST', '/api/accounts/agy/sign-in', { acknowledge: 'yes' })).toMatchObject({ status: 400 });
    const accepted = await app.json('POST', '/api/accounts/agy/sign-in', { acknowledge: true, method: 'paste' });
    expect(accepted).toMatchObject({ status: 200, body: { signInId: expect.any(String) } });
    const again = await app.json('POST', '/api/accounts/agy/sign-in', { method: 'paste' });
    expect(again).toMatchObject({ status: 200, body: { signInId: expect.any(String) } });
    for (const id of [accepted.body.signInId, again.body.signInId]) expect((await app.json('DELETE', `/api/accounts/sign-in/${id}`)).status).toBe(200);
  });
});

describe('accounts', () => {
  it('sets the drain-order priority in the auth file, atomically, and refuses bad values', async () => {
    const codex = (await app.json('GET', '/api/accounts')).body.accounts.find((a: any) => a.provider === 'codex');
    expect(codex.priority).toBe(0);
    const id = encodeURIComponent(codex.accountId);
    const file = path.join(app.home, 'proxy', 'auth', codex.file);
    const before = JSON.parse(await fs.readFile(file, 'utf8'));
    expect(await app.json('PUT', `/api/accounts/codex/${id}/priority`, { priority: 7 })).toMatchObject({ status: 200, body: { account: { accountId: codex.accountId, priority: 7 } } });
    // The file keeps everything else and gains CLIProxyAPI's `priority` field.
    expect(JSON.parse(await fs.readFile(file, 'utf8'))).toEqual({ ...before, priority: 7 });
    expect((await app.json('GET', '/api/accounts')).body.accounts.find((a: any) => a.file === codex.file).priority).toBe(7);
    for (const bad of [{}, { priority: 1.5 }, { priority: '3' }, { priority: 5000 }, { priority: null }]) {
      expect(await app.json('PUT', `/api/accounts/codex/${id}/priority`, bad)).toMatchObject({ status: 400, body: { error: 'Invalid priority' } });
    }
    expect(JSON.parse(await fs.readFile(file, 'utf8')).priority).toBe(7);
    expect(await app.json('PUT', '/api/accounts/codex/nobody@example.com/priority', { priority: 1 })).toMatchObject({ status: 404, body: { error: 'Account not found' } });
    expect(await app.json('PUT', '/api/accounts/openai/x/priority', { priority: 1 })).toEqual({ status: 400, body: INVALID_PROVIDER });
    // 0 is the default: the field goes away again.
    expect(await app.json('PUT', `/api/accounts/codex/${id}/priority`, { priority: 0 })).toMatchObject({ status: 200, body: { account: { priority: 0 } } });
    expect(JSON.parse(await fs.readFile(file, 'utf8'))).toEqual(before);
  });

  it('lists, pauses, resumes, refreshes and removes; unknown and path-like ids are refused', async () => {
    const list = await app.json('GET', '/api/accounts');
    expect(list.status).toBe(200);
    const codex = list.body.accounts.find((a: any) => a.provider === 'codex');
    expect(codex).toMatchObject({ accountId: 'coder@example.com', email: 'coder@example.com', label: 'coder@example.com (plus)', status: 'active', expiresAt: expect.any(Number), lastRefresh: expect.any(Number) });
    const id = encodeURIComponent(codex.accountId);
    expect(await app.json('POST', `/api/accounts/codex/${id}/pause`)).toMatchObject({ status: 200, body: { account: { status: 'paused' } } });
    expect(await app.json('POST', `/api/accounts/codex/${id}/resume`)).toMatchObject({ status: 200, body: { account: { status: 'active' } } });
    const before = codex.lastRefresh;
    const refreshed = await app.json('POST', `/api/accounts/codex/${id}/refresh`);
    expect(refreshed.status).toBe(200);
    expect(refreshed.body.account.lastRefresh).toBeGreaterThanOrEqual(before);
    expect(await app.json('POST', '/api/accounts/codex/nobody@example.com/pause')).toMatchObject({ status: 404, body: { error: 'Account not found' } });
    expect(await app.json('POST', '/api/accounts/codex/..%2Fx/pause')).toEqual({ status: 400, body: { error: 'Invalid account ID' } });
    expect(await app.json('POST', '/api/accounts/openai/x/pause')).toEqual({ status: 400, body: INVALID_PROVIDER });
    const removed = await app.json('DELETE', `/api/accounts/codex/${id}`);
    expect(removed).toMatchObject({ status: 200, body: { removed: true, backupPath: expect.stringContaining(path.join('backups', 'auth')) } });
    expect((await app.json('GET', '/api/accounts')).body.accounts.some((a: any) => a.accountId === codex.accountId)).toBe(false);
  });

  it('a provider refusing the refresh is 502 naming the provider, and the account shows the error', async () => {
    await pasteSignIn();
    const { accounts } = (await app.json('GET', '/api/accounts')).body;
    const codex = accounts.find((a: any) => a.provider === 'codex');
    const record = JSON.parse(await fs.readFile(path.join(app.home, 'proxy', 'auth', codex.file), 'utf8'));
    fake.refreshTokens.set(record.refresh_token, true);
    const res = await app.json('POST', `/api/accounts/codex/${encodeURIComponent(codex.accountId)}/refresh`);
    expect(res).toMatchObject({ status: 502, body: { error: 'Provider request failed', message: expect.stringMatching(/^codex: signed out by the provider: sign in again/) } });
    const after = (await app.json('GET', '/api/accounts')).body.accounts.find((a: any) => a.file === codex.file);
    expect(after).toMatchObject({ status: 'error', lastError: expect.stringContaining('refresh_token_reused') });
  });

  it('import: 404 No credentials found with the paths looked at; Copilot apps.json imports, an existing ghcp profile is left alone', async () => {
    const none = await app.json('POST', '/api/accounts/codex/import', { path: '~/nothing-here.json' });
    expect(none).toMatchObject({ status: 404, body: { error: 'No credentials found', paths: [path.join(app.home, 'nothing-here.json')] } });
    expect(await app.json('POST', '/api/accounts/kiro/import', {})).toMatchObject({ status: 404, body: { error: 'No credentials found', paths: [path.join(app.home, '.aws/sso/cache/kiro-auth-token.json')] } });
    expect(await app.json('POST', '/api/accounts/gemini/import', {})).toMatchObject({ status: 404, body: { error: 'No credentials found', paths: [path.join(app.home, '.gemini/oauth_creds.json')] } });
    expect(await app.json('POST', '/api/accounts/agy/import', {})).toMatchObject({ status: 400, body: { error: 'Sign-in not available' } });
    expect((await app.json('PUT', '/api/settings/ghcp', { settings: { env: { PROVIDER_BASE_URL: 'https://example.test', PROVIDER_MODEL: 'mine', PROVIDER_AUTH_TOKEN: 't' } } })).status).toBe(200);
    fake.githubTokens.add('gho_imported');
    await fs.mkdir(path.join(app.home, '.config', 'github-copilot'), { recursive: true });
    await fs.writeFile(path.join(app.home, '.config', 'github-copilot', 'apps.json'), JSON.stringify({ 'github.com:Iv1.b507a08c87ecfe98': { user: 'octocat', oauth_token: 'gho_imported' } }));
    const imported = await app.json('POST', '/api/accounts/ghcp/import', {});
    expect(imported).toMatchObject({ status: 200, body: { account: { provider: 'ghcp', accountId: 'octocat', file: 'github-copilot-octocat.json' } } });
    expect((await app.json('GET', '/api/settings/ghcp?raw=true')).body.settings.env.PROVIDER_MODEL).toBe('mine');
  });
});
