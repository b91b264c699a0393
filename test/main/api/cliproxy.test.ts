import fs from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../helpers/app.js';
import { CLIPROXY_ORIGINAL, CLIPROXY_PLUS, fakeCliproxyWrapper, startFakeReleaseFeed } from '../../helpers/fake-release-feed.js';
import { makeTempDir } from '../../helpers/temp-dir.js';
import { isProcessAlive } from '../../../main/infra/process-alive.js';

/** /api/proxy/cliproxy (decisions §4.1) against a local fake of GitHub's release feed and downloads. */
const script = (v: string) => `#!/bin/sh\necho "CLIProxyAPI Version: ${v}"\n`;
let tmp: Awaited<ReturnType<typeof makeTempDir>>;
let feed: Awaited<ReturnType<typeof startFakeReleaseFeed>>;
let app: TestApp;

beforeAll(async () => {
  tmp = await makeTempDir('cliproxy-api-');
  feed = await startFakeReleaseFeed({
    workDir: tmp.dir,
    ...CLIPROXY_ORIGINAL,
    releases: [
      { version: '6.9.40', script: script('6.9.40') },
      { version: '6.9.41', script: script('6.9.41'), badChecksum: true },
      { version: '6.9.45', script: script('6.9.45') },
    ],
    // 6.6.85-0 is on the shipped known-bad list (resources/cliproxy-known-bad.json).
    extra: [{ ...CLIPROXY_PLUS, releases: [{ version: '6.6.85-0', script: script('6.6.85-0') }] }],
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

const bin = () => path.join(app.home, 'proxy', 'bin');

describe('managed CLIProxyAPI API', () => {
  it('reports nothing installed, with the latest release from the feed', async () => {
    const { status, body } = await app.json('GET', '/api/proxy/cliproxy');
    expect(status).toBe(200);
    expect(body).toMatchObject({ installed: false, backend: 'original', version: null, pinned: null, latestVersion: '6.9.45', running: false });
  });

  it('installs a version, then updates to the latest and says what changed', async () => {
    let r = await app.json('POST', '/api/proxy/cliproxy/install', { version: '6.9.40' });
    expect(r).toEqual({ status: 200, body: { installed: true, backend: 'original', version: '6.9.40', previousVersion: null, restarted: false } });
    r = await app.json('POST', '/api/proxy/cliproxy/install', {});
    expect(r.body).toMatchObject({ version: '6.9.45', previousVersion: '6.9.40' });
    expect(await fs.readFile(path.join(bin(), 'cli-proxy-api'), 'utf8')).toBe(script('6.9.45'));
    expect((await app.json('GET', '/api/proxy/cliproxy')).body).toMatchObject({ installed: true, version: '6.9.45', path: path.join(bin(), 'cli-proxy-api') });
  });

  it('answers 502 Checksum mismatch and replaces nothing', async () => {
    const r = await app.json('POST', '/api/proxy/cliproxy/install', { version: '6.9.41' });
    expect(r.status).toBe(502);
    expect(r.body.error).toBe('Checksum mismatch');
    expect(await fs.readFile(path.join(bin(), 'cli-proxy-api'), 'utf8')).toBe(script('6.9.45'));
  });

  it('answers 404 No release asset for a version that does not exist, 400 for a malformed one', async () => {
    expect((await app.json('POST', '/api/proxy/cliproxy/install', { version: '1.2.3' })).body.error).toBe('No release asset');
    const bad = await app.json('POST', '/api/proxy/cliproxy/install', { version: '../../x' });
    expect(bad.status).toBe(400);
    expect(bad.body.error).toBe('Invalid install request');
    expect((await app.json('POST', '/api/proxy/cliproxy/install', { force: 'yes' })).status).toBe(400);
  });

  it('refuses a known-bad version with 409 unless forced', async () => {
    const r = await app.json('POST', '/api/proxy/cliproxy/install', { backend: 'plus', version: '6.6.85-0' });
    expect(r.status).toBe(409);
    expect(r.body.error).toBe('Known-bad version');
    expect(await fs.readFile(path.join(bin(), 'cli-proxy-api'), 'utf8')).toBe(script('6.9.45'));
    const forced = await app.json('POST', '/api/proxy/cliproxy/install', { backend: 'plus', version: '6.6.85-0', force: true });
    expect(forced.body).toMatchObject({ installed: true, backend: 'plus', version: '6.6.85-0' });
    expect((await app.json('GET', '/api/proxy/cliproxy')).body.knownBad).toContain('6.6.85-0');
    await app.json('POST', '/api/proxy/cliproxy/install', { backend: 'original' });
  });

  it('respects a pin: an install without a version takes the pinned one', async () => {
    expect((await app.json('PUT', '/api/proxy/cliproxy/pin', { version: '6.9.40' })).body).toEqual({ pinned: '6.9.40' });
    expect((await app.json('POST', '/api/proxy/cliproxy/install', {})).body.version).toBe('6.9.40');
    expect((await app.json('GET', '/api/proxy/cliproxy')).body.pinned).toBe('6.9.40');
    expect((await app.json('PUT', '/api/proxy/cliproxy/pin', { version: 'latest' })).status).toBe(400);
    expect((await app.json('PUT', '/api/proxy/cliproxy/pin', { version: null })).body).toEqual({ pinned: null });
    expect((await app.json('POST', '/api/proxy/cliproxy/install', {})).body.version).toBe('6.9.45');
  });

  it('the update check reports the installed binary against the newest allowed version', async () => {
    await app.json('POST', '/api/proxy/cliproxy/install', { version: '6.9.40' });
    let r = await app.json('GET', '/api/proxy/update-check?force=true');
    expect(r.status).toBe(200);
    expect(r.body.cliproxy).toEqual({ currentVersion: '6.9.40', latestVersion: '6.9.45', hasUpdate: true });
    await app.json('PUT', '/api/proxy/cliproxy/pin', { version: '6.9.40' });
    r = await app.json('GET', '/api/proxy/update-check');
    expect(r.body.cliproxy).toEqual({ currentVersion: '6.9.40', latestVersion: '6.9.40', hasUpdate: false });
    await app.json('PUT', '/api/proxy/cliproxy/pin', { version: null });
  });

  it("keeps the feed's latest an hour (the dashboard opens often); ?force=true asks again, another value is 400", async () => {
    const asked = () => feed.requests.filter((u) => u.endsWith('/releases/latest')).length;
    await app.json('GET', '/api/proxy/cliproxy?force=true');
    const before = asked();
    feed.setLatest('6.9.40');
    expect((await app.json('GET', '/api/proxy/cliproxy')).body.latestVersion).toBe('6.9.45');
    expect(asked()).toBe(before);
    expect((await app.json('GET', '/api/proxy/cliproxy?force=true')).body.latestVersion).toBe('6.9.40');
    feed.setLatest('6.9.45');
    expect((await app.json('GET', '/api/proxy/cliproxy?force=true')).body.latestVersion).toBe('6.9.45');
    expect((await app.json('GET', '/api/proxy/cliproxy?force=yes')).status).toBe(400);
  });

  it('uninstalls the binary and keeps proxy/auth/', async () => {
    await fs.mkdir(path.join(app.home, 'proxy', 'auth'), { recursive: true });
    await fs.writeFile(path.join(app.home, 'proxy', 'auth', 'kiro-a.json'), '{}');
    expect((await app.json('DELETE', '/api/proxy/cliproxy')).body).toEqual({ removed: true });
    expect((await app.json('GET', '/api/proxy/cliproxy')).body).toMatchObject({ installed: false, version: null });
    expect(await fs.readFile(path.join(app.home, 'proxy', 'auth', 'kiro-a.json'), 'utf8')).toBe('{}');
    expect((await app.json('DELETE', '/api/proxy/cliproxy')).body).toEqual({ removed: false });
    expect((await app.json('GET', '/api/proxy/update-check')).body.cliproxy).toBeUndefined();
  });
});

describe('running the managed binary beside the engine', () => {
  const runScript = (v: string) => fakeCliproxyWrapper(`fake CLIProxyAPI ${v}`);
  let run: Awaited<ReturnType<typeof startFakeReleaseFeed>>;
  let runApp: TestApp;
  let runTmp: Awaited<ReturnType<typeof makeTempDir>>;

  beforeAll(async () => {
    runTmp = await makeTempDir('cliproxy-run-');
    run = await startFakeReleaseFeed({
      workDir: runTmp.dir,
      ...CLIPROXY_ORIGINAL,
      releases: [{ version: '6.9.40', script: runScript('6.9.40') }, { version: '6.9.45', script: runScript('6.9.45') }],
    });
    runApp = await startTestApp({
      before: async ({ home }) => {
        await fs.mkdir(home, { recursive: true });
        await fs.writeFile(path.join(home, 'config.yaml'), `network:\n  origin_overrides:\n    https://api.github.com: ${run.origin}\n    https://github.com: ${run.origin}\n`);
      },
    });
  });
  afterAll(async () => {
    await runApp?.stop();
    await run?.close();
    await runTmp?.cleanup();
  });

  const waitFor = async (cond: () => Promise<boolean>, what: string) => {
    const deadline = Date.now() + 5_000;
    while (!(await cond())) {
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
      await new Promise((r) => setTimeout(r, 50));
    }
  };
  const alive = isProcessAlive;

  it('start needs an install (409), then runs on its own port with logging off and a generated key', async () => {
    expect((await runApp.json('POST', '/api/proxy/cliproxy/start')).body.error).toBe('CLIProxyAPI not installed');
    await runApp.json('POST', '/api/proxy/cliproxy/install', { version: '6.9.40' });
    const started = await runApp.json('POST', '/api/proxy/cliproxy/start');
    expect(started.status).toBe(200);
    const { port, pid } = started.body;
    expect((await runApp.json('GET', '/api/proxy/cliproxy')).body).toMatchObject({ running: true, port });
    const rec = JSON.parse(await fs.readFile(path.join(runApp.home, 'proxy', 'cliproxy', 'logs', 'fake-cliproxy-start.json'), 'utf8'));
    expect(rec.config).toMatchObject({ host: '127.0.0.1', port, 'auth-dir': path.join(runApp.home, 'proxy', 'auth'), 'logging-to-file': false, 'request-log': false });
    expect(rec.config['api-keys'][0]).toMatch(/^sb-cliproxy-/);
    expect((await fetch(`http://127.0.0.1:${port}/v1/models`)).status).toBe(401);
    expect((await fetch(`http://127.0.0.1:${port}/v1/models`, { headers: { authorization: `Bearer ${rec.config['api-keys'][0]}` } })).status).toBe(200);

    // Update while running: the old process is gone, the new binary answers on the same port.
    const upd = await runApp.json('POST', '/api/proxy/cliproxy/install', {});
    expect(upd.body).toMatchObject({ version: '6.9.45', previousVersion: '6.9.40', restarted: true });
    expect(alive(pid)).toBe(false);
    const after = await runApp.json('GET', '/api/proxy/cliproxy');
    expect(after.body).toMatchObject({ running: true, port, version: '6.9.45' });
    expect((await fetch(`http://127.0.0.1:${port}/`)).status).toBe(200);
  });

  it('notices a crash within 2 s', async () => {
    const status = await runApp.json('GET', '/api/proxy/cliproxy');
    const state = JSON.parse(await fs.readFile(path.join(runApp.home, 'proxy', 'cliproxy', 'state.json'), 'utf8'));
    expect(status.body.running).toBe(true);
    process.kill(state.pid, 'SIGKILL');
    const t0 = Date.now();
    await waitFor(async () => (await runApp.json('GET', '/api/proxy/cliproxy')).body.running === false, 'the crash to be noticed');
    expect(Date.now() - t0).toBeLessThan(2_000);
  });

  it('stop and uninstall leave no process behind', async () => {
    const started = await runApp.json('POST', '/api/proxy/cliproxy/start');
    expect((await runApp.json('POST', '/api/proxy/cliproxy/stop')).body).toEqual({ stopped: true });
    expect(alive(started.body.pid)).toBe(false);
    await runApp.json('POST', '/api/proxy/cliproxy/start');
    expect((await runApp.json('DELETE', '/api/proxy/cliproxy')).body).toEqual({ removed: true });
    expect((await runApp.json('GET', '/api/proxy/cliproxy')).body).toMatchObject({ installed: false, running: false });
  });
});
