import fs from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../helpers/app.js';
import { CLIPROXY_ORIGINAL, fakeCliproxyWrapper, startFakeReleaseFeed } from '../../helpers/fake-release-feed.js';
import { makeTempDir } from '../../helpers/temp-dir.js';
import { waitFor } from '../../helpers/wait.js';

/**
 * Issue 31.4, binary side: the managed binary's generated config carries proxy/config.yaml's
 * routing settings when it starts, and a change is written to it while it runs (hot reload, no
 * restart). The fake binary records its start config and each reload it sees.
 */
const runScript = fakeCliproxyWrapper();
let tmp: Awaited<ReturnType<typeof makeTempDir>>;
let feed: Awaited<ReturnType<typeof startFakeReleaseFeed>>;
let app: TestApp;

beforeAll(async () => {
  tmp = await makeTempDir('cliproxy-routing-');
  feed = await startFakeReleaseFeed({ workDir: tmp.dir, ...CLIPROXY_ORIGINAL, releases: [{ version: '6.9.45', script: runScript }] });
  app = await startTestApp({
    before: async ({ home }) => {
      await fs.mkdir(home, { recursive: true });
      await fs.writeFile(path.join(home, 'config.yaml'), `network:\n  origin_overrides:\n    https://api.github.com: ${feed.origin}\n    https://github.com: ${feed.origin}\n`);
    },
  });
  expect((await app.json('POST', '/api/proxy/cliproxy/install', {})).status).toBe(200);
});
afterAll(async () => {
  await app?.stop();
  await feed?.close();
  await tmp?.cleanup();
});

const logFile = (name: string) => path.join(app.home, 'proxy', 'cliproxy', 'logs', name);
const readJson = async (name: string) => JSON.parse(await fs.readFile(logFile(name), 'utf8'));
/** A read that fails (the binary restarting) counts as not yet. */
function waitForRead<T>(read: () => Promise<T>, ok: (v: T) => boolean, what: string): Promise<T> {
  return waitFor(() => read().catch(() => undefined as T), (v) => v !== undefined && ok(v), { what });
}

async function setRouting(routing: string): Promise<void> {
  const current = await app.request('GET', '/api/proxy/config.yaml');
  const text = (await current.text()).replace(/^routing:.*(\n {2}.*)*\n?/m, '');
  const put = await app.json('PUT', '/api/proxy/config.yaml', { content: `${text.trimEnd()}\nrouting:\n${routing}` });
  expect(put.status).toBe(200);
}

describe('the managed binary follows routing.account_strategy and routing.session_affinity', () => {
  it('starts with the defaults: round-robin, session affinity, cooling on', async () => {
    const started = await app.json('POST', '/api/proxy/cliproxy/start');
    expect(started.status).toBe(200);
    const rec = await readJson('fake-cliproxy-start.json');
    expect(rec.config.routing).toEqual({ strategy: 'round-robin', 'session-affinity': true, 'session-affinity-ttl': '1h' });
    expect(rec.config['disable-cooling']).toBe(false);
    expect(rec.config['api-keys'][0]).toMatch(/^sb-cliproxy-/);
  });

  it('a change in proxy/config.yaml reaches the running binary without a restart', async () => {
    const before = await app.json('GET', '/api/proxy/cliproxy');
    await setRouting('  account_strategy: fill-first\n  session_affinity: false\n');
    const reload = await waitForRead(() => readJson('fake-cliproxy-reload.json'), (r) => r.config.routing?.strategy === 'fill-first', 'the binary to reload');
    expect(reload.config.routing).toEqual({ strategy: 'fill-first', 'session-affinity': false, 'session-affinity-ttl': '1h' });
    expect(reload.config['disable-cooling']).toBe(false);
    // Same process, same port: hot reload, not a restart.
    const state = JSON.parse(await fs.readFile(path.join(app.home, 'proxy', 'cliproxy', 'state.json'), 'utf8'));
    expect(reload.pid).toBe(state.pid);
    expect((await app.json('GET', '/api/proxy/cliproxy')).body).toMatchObject({ running: true, port: before.body.port });
  });

  it('the next start carries the setting too', async () => {
    await app.json('POST', '/api/proxy/cliproxy/stop');
    await setRouting('  account_strategy: round-robin\n  session_affinity: true\n');
    await setRouting('  account_strategy: fill-first\n  session_affinity: true\n');
    expect((await app.json('POST', '/api/proxy/cliproxy/start')).status).toBe(200);
    const rec = await waitForRead(() => readJson('fake-cliproxy-start.json'), (r) => r.config.routing?.strategy === 'fill-first', 'the new start record');
    expect(rec.config.routing).toEqual({ strategy: 'fill-first', 'session-affinity': true, 'session-affinity-ttl': '1h' });
    await app.json('POST', '/api/proxy/cliproxy/stop');
  });

  it('a proxy/config.yaml the engine would refuse changes nothing in the binary', async () => {
    const file = path.join(app.home, 'proxy', 'cliproxy', 'config.yaml');
    const before = await fs.readFile(file, 'utf8');
    const put = await app.json('PUT', '/api/proxy/config.yaml', { content: 'routing:\n  account_strategy: fill-last\n' });
    expect(put.status).toBe(400);
    expect(await fs.readFile(file, 'utf8')).toBe(before);
  });
});
