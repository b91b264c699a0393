import fs from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../helpers/app.js';
import { CLIPROXY_PLUS, fakeCliproxyWrapper, startFakeReleaseFeed } from '../../helpers/fake-release-feed.js';
import { makeTempDir } from '../../helpers/temp-dir.js';
import { waitFor } from '../../helpers/wait.js';

/**
 * Kiro's sign-in through the managed binary's management routes, and account actions through its
 * auth-files routes while it runs (issue 31, points 2–3), against the fake CLIProxyAPI installed
 * from a local release feed.
 */
const runScript = fakeCliproxyWrapper('fake CLIProxyAPIPlus');
let tmp: Awaited<ReturnType<typeof makeTempDir>>;
let feed: Awaited<ReturnType<typeof startFakeReleaseFeed>>;
let app: TestApp;

beforeAll(async () => {
  tmp = await makeTempDir('kiro-sign-in-');
  feed = await startFakeReleaseFeed({
    workDir: tmp.dir,
    ...CLIPROXY_PLUS,
    releases: [{ version: '6.9.45-0', script: runScript }],
  });
  app = await startTestApp({
    before: async ({ home }) => {
      await fs.mkdir(home, { recursive: true });
      await fs.writeFile(path.join(home, 'config.yaml'), `network:\n  origin_overrides:\n    https://api.github.com: ${feed.origin}\n    https://github.com: ${feed.origin}\n`);
    },
  });
});
afterAll(async () => {
  await app?.stop();
  await feed?.close();
  await tmp?.cleanup();
});

interface Call {
  method: string;
  path: string;
  query: Record<string, string>;
  body?: Record<string, unknown>;
}

const authDir = () => path.join(app.home, 'proxy', 'auth');
const binaryPort = async (): Promise<number> => (await app.json('GET', '/api/proxy/cliproxy')).body.port;
async function calls(): Promise<Call[]> {
  return ((await (await fetch(`http://127.0.0.1:${await binaryPort()}/fake/records`)).json()) as { calls: Call[] }).calls;
}
async function control(route: string, body: unknown = {}): Promise<Response> {
  return fetch(`http://127.0.0.1:${await binaryPort()}/fake/kiro/${route}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
}
async function waitForValue<T>(probe: () => Promise<T | null | undefined | false>, what: string, ms = 5_000): Promise<T> {
  return (await waitFor(probe, Boolean, { what, ms })) as T;
}
const settled = (signInId: string) =>
  waitForValue(async () => {
    const s = await app.json('GET', `/api/accounts/sign-in/${signInId}`);
    return s.body.status !== 'waiting' ? s.body : null;
  }, 'the sign-in to end');

describe('kiro sign-in through the managed CLIProxyAPI', () => {
  it('answers 409 with how to install while the binary is not installed', async () => {
    const r = await app.json('POST', '/api/accounts/kiro/sign-in', {});
    expect(r.status).toBe(409);
    expect(r.body.error).toBe('CLIProxyAPI not installed');
    expect(r.body.message).toContain('switchboard cliproxy install --backend plus');
    expect(r.body.message).toContain('Proxy → CLIProxyAPI → Install');
    expect((await app.json('GET', '/api/proxy/cliproxy')).body.running).toBe(false);
  });

  it('refuses unusable methods and IAM Identity Center inputs with 400 before starting anything', async () => {
    expect((await app.json('POST', '/api/accounts/kiro/sign-in', { method: 'browser' })).body.error).toBe('Invalid sign-in method');
    expect((await app.json('POST', '/api/accounts/codex/sign-in', { method: 'idc' })).body.error).toBe('Invalid sign-in method');
    const bad = [
      { method: 'idc' },
      { method: 'idc', startUrl: 'http://my-org.awsapps.com/start' },
      { method: 'idc', startUrl: 'https://my-org.awsapps.com/start?x=1' },
      { method: 'idc', startUrl: 'https://my-org.awsapps.com/start', region: 'mars' },
      { method: 'idc', startUrl: 'https://my-org.awsapps.com/start', region: 'us-east-1.evil.com' },
      { method: 'device', startUrl: 'https://my-org.awsapps.com/start' },
    ];
    for (const body of bad) {
      const r = await app.json('POST', '/api/accounts/kiro/sign-in', body);
      expect(r, JSON.stringify(body)).toMatchObject({ status: 400, body: { error: 'Invalid sign-in options', message: expect.any(String) } });
    }
  });

  it('Builder ID: starts the binary, shows the device code, keeps waiting through the device_code "error", then lists the account', async () => {
    expect((await app.json('POST', '/api/proxy/cliproxy/install', { backend: 'plus' })).body).toMatchObject({ installed: true, backend: 'plus' });
    const start = await app.json('POST', '/api/accounts/kiro/sign-in', {});
    expect(start.status).toBe(200);
    expect(start.body).toEqual({ signInId: expect.any(String), url: expect.stringMatching(/^https:\/\/view\.awsapps\.com\/start\/#\/device\?user_code=FAKE-/), userCode: expect.stringMatching(/^FAKE-/), expiresAt: expect.any(Number) });
    expect(start.body.url).toContain(start.body.userCode);
    const started = (await calls()).find((c) => c.path === 'kiro-auth-url');
    expect(started?.query).toEqual({ is_webui: 'true', method: 'aws' });

    // The binary reports the code as {"status":"error","error":"device_code|…"} on every poll: still waiting.
    const state = (await calls()).filter((c) => c.path === 'get-auth-status').at(-1)!.query.state;
    await waitForValue(async () => (await calls()).filter((c) => c.path === 'get-auth-status' && c.query.state === state).length >= 5, 'the sign-in to poll the device code a few times');
    expect((await app.json('GET', `/api/accounts/sign-in/${start.body.signInId}`)).body).toEqual({ status: 'waiting' });

    expect((await control('complete', { email: 'dev@example.com' })).status).toBe(200);
    const done = await settled(start.body.signInId);
    expect(done).toMatchObject({ status: 'ok', account: { provider: 'kiro', accountId: 'dev@example.com', email: 'dev@example.com', status: 'active', file: 'kiro-aws-dev_example.com.json' } });
    expect(done.account.models).toContain('kiro-claude-sonnet-4-6');
    const listed = (await app.json('GET', '/api/accounts')).body.accounts;
    expect(listed).toEqual([expect.objectContaining({ provider: 'kiro', accountId: 'dev@example.com' })]);
    // The first kiro account creates the `kiro` profile with the reference's tier models.
    const profile = await app.json('GET', '/api/settings/kiro?raw=true');
    expect(profile.body.settings.env).toMatchObject({ PROVIDER_MODEL: 'kiro-claude-sonnet-4-6', PROVIDER_DEFAULT_OPUS_MODEL: 'kiro-claude-opus-4-7', PROVIDER_DEFAULT_HAIKU_MODEL: 'kiro-claude-haiku-4-5' });
  });

  it('the management secret survives the binary rewriting it: plaintext in credentials.json (0600), hashed in config.yaml, accepted after a restart', async () => {
    const runDir = path.join(app.home, 'proxy', 'cliproxy');
    const creds = JSON.parse(await fs.readFile(path.join(runDir, 'credentials.json'), 'utf8'));
    expect((await fs.stat(path.join(runDir, 'credentials.json'))).mode & 0o777).toBe(0o600);
    const config = await fs.readFile(path.join(runDir, 'config.yaml'), 'utf8');
    expect(config).toMatch(/secret-key: \$2a\$/);
    expect(config).not.toContain(creds.secret);
    await app.json('POST', '/api/proxy/cliproxy/stop');
    await app.json('POST', '/api/proxy/cliproxy/start');
    const again = await app.json('POST', '/api/accounts/kiro/sign-in', {});
    expect(again.status).toBe(200);
    expect(again.body.userCode).toMatch(/^FAKE-/);
    expect((await app.json('DELETE', `/api/accounts/sign-in/${again.body.signInId}`)).body.status).toBe('cancelled');
  });

  it("the binary's management guard: no key or a wrong one is refused, every answer names the version", async () => {
    const base = `http://127.0.0.1:${await binaryPort()}/v0/management/auth-files`;
    const none = await fetch(base);
    expect([none.status, await none.json(), none.headers.get('x-cpa-version')]).toEqual([401, { error: 'missing management key' }, '6.9.8-0-plus']);
    const wrong = await fetch(base, { headers: { 'x-management-key': 'guess' } });
    expect([wrong.status, await wrong.json()]).toEqual([401, { error: 'invalid management key' }]);
  });

  it('IAM Identity Center: passes method=idc, start_url and region; cancel ends the binary session', async () => {
    const start = await app.json('POST', '/api/accounts/kiro/sign-in', { method: 'idc', startUrl: 'https://my-org.awsapps.com/start/', region: 'eu-west-1' });
    expect(start.status).toBe(200);
    expect(start.body.url).toContain('https://my-org.awsapps.com/start/#/device?user_code=');
    const started = (await calls()).filter((c) => c.path === 'kiro-auth-url').at(-1);
    expect(started?.query).toEqual({ is_webui: 'true', method: 'idc', start_url: 'https://my-org.awsapps.com/start', region: 'eu-west-1' });
    const state = (await calls()).filter((c) => c.path === 'get-auth-status').at(-1)!.query.state;
    expect((await app.json('DELETE', `/api/accounts/sign-in/${start.body.signInId}`)).body).toEqual({ status: 'cancelled', error: 'Sign-in cancelled' });
    await waitForValue(async () => (await calls()).some((c) => c.method === 'DELETE' && c.path === 'oauth-session' && c.query.state === state), 'the binary session to be cancelled');
  });

  it("the binary's real error fails the sign-in with its message, before and after the code", async () => {
    await control('next', { error: 'Failed to register client' });
    const early = await app.json('POST', '/api/accounts/kiro/sign-in', {});
    expect(early).toMatchObject({ status: 502, body: { error: 'Provider request failed', message: 'kiro: Failed to register client' } });

    const start = await app.json('POST', '/api/accounts/kiro/sign-in', {});
    expect(start.status).toBe(200);
    expect((await control('fail', { error: 'Token creation failed' })).status).toBe(200);
    expect(await settled(start.body.signInId)).toEqual({ status: 'error', error: 'kiro: Token creation failed' });
  });
});

describe('account actions while the binary runs, and while it is stopped', () => {
  const kiroId = 'dev@example.com';
  const kiroFile = () => path.join(authDir(), 'kiro-aws-dev_example.com.json');
  const record = async (file: string) => JSON.parse(await fs.readFile(file, 'utf8'));

  it('pause, resume and priority of a kiro account go through PATCH auth-files while it runs', async () => {
    expect((await app.json('GET', '/api/proxy/cliproxy')).body.running).toBe(true);
    const paused = await app.json('POST', `/api/accounts/kiro/${kiroId}/pause`);
    expect(paused.body.account).toMatchObject({ provider: 'kiro', status: 'paused' });
    expect((await calls()).filter((c) => c.path === 'auth-files/status')).toEqual([{ method: 'PATCH', path: 'auth-files/status', query: {}, body: { name: 'kiro-aws-dev_example.com.json', disabled: true } }]);
    expect((await app.json('POST', `/api/accounts/kiro/${kiroId}/resume`)).body.account.status).toBe('active');
    const prio = await app.json('PUT', `/api/accounts/kiro/${kiroId}/priority`, { priority: 5 });
    expect(prio.body.account.priority).toBe(5);
    expect((await calls()).filter((c) => c.path.startsWith('auth-files/')).map((c) => c.body)).toEqual([
      { name: 'kiro-aws-dev_example.com.json', disabled: true },
      { name: 'kiro-aws-dev_example.com.json', disabled: false },
      { name: 'kiro-aws-dev_example.com.json', priority: 5 },
    ]);
  });

  it('codex accounts stay on disk even while the binary runs (the engine reads those files)', async () => {
    await fs.writeFile(path.join(authDir(), 'codex-me@example.com.json'), JSON.stringify({ type: 'codex', email: 'me@example.com', access_token: 'x', refresh_token: 'y' }), { mode: 0o600 });
    const before = (await calls()).length;
    expect((await app.json('POST', '/api/accounts/codex/me@example.com/pause')).body.account.status).toBe('paused');
    expect((await calls()).length).toBe(before);
    expect((await record(path.join(authDir(), 'codex-me@example.com.json'))).disabled).toBe(true);
  });

  it('remove while running keeps a backup first, then the binary deletes the file', async () => {
    await fs.writeFile(path.join(authDir(), 'antigravity-a@example.com.json'), JSON.stringify({ type: 'antigravity', email: 'a@example.com', access_token: 'x', refresh_token: 'y' }), { mode: 0o600 });
    const removed = await app.json('DELETE', '/api/accounts/agy/a@example.com');
    expect(removed.status).toBe(200);
    expect(JSON.parse(await fs.readFile(removed.body.backupPath, 'utf8'))).toMatchObject({ type: 'antigravity', email: 'a@example.com' });
    expect((await calls()).filter((c) => c.method === 'DELETE' && c.path === 'auth-files')).toEqual([{ method: 'DELETE', path: 'auth-files', query: { name: 'antigravity-a@example.com.json' } }]);
    await expect(fs.access(path.join(authDir(), 'antigravity-a@example.com.json'))).rejects.toThrow();
  });

  it('while stopped, pause and priority write the file on disk and do not start the binary', async () => {
    expect((await app.json('POST', '/api/proxy/cliproxy/stop')).body).toEqual({ stopped: true });
    expect((await app.json('POST', `/api/accounts/kiro/${kiroId}/pause`)).body.account.status).toBe('paused');
    expect((await app.json('PUT', `/api/accounts/kiro/${kiroId}/priority`, { priority: 0 })).body.account.priority).toBe(0);
    const rec = await record(kiroFile());
    expect(rec.disabled).toBe(true);
    expect('priority' in rec).toBe(false);
    expect((await app.json('GET', '/api/proxy/cliproxy')).body.running).toBe(false);
    const removed = await app.json('DELETE', `/api/accounts/kiro/${kiroId}`);
    expect(removed.status).toBe(200);
    await expect(fs.access(kiroFile())).rejects.toThrow();
    expect((await app.json('GET', '/api/proxy/cliproxy')).body.running).toBe(false);
  });
});
