import fs from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import YAML from 'yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { prepareProxyHome, startOnHome, tempHome, type HomeApp } from '../../fixtures/proxy-home.js';
import { CLIPROXY_ORIGINAL, FAKE_CLIPROXY, startFakeReleaseFeed } from '../../helpers/fake-release-feed.js';
import { isProcessAlive } from '../../../main/infra/process-alive.js';
import { waitFor } from '../../helpers/wait.js';

/**
 * The managed CLIProxyAPI serving kiro/agy traffic end to end with the real app, the real engine
 * and the fake binary installed from a fake release feed: the lazy start, an update's restart
 * without a failed request, and adoption after an app restart (decisions §4.1, issue 31 point 2).
 */
// A Node script, not a shell wrapper that execs node: the process keeps the installed path in its
// argv, which adoption checks. 6.9.45 takes 1.5 s before it listens, so an update's restart has a
// window a request can fall into.
const runScript = (v: string, delayMs = 0) =>
  `#!${process.execPath}\n// fake CLIProxyAPI ${v}\nsetTimeout(() => import(${JSON.stringify(pathToFileURL(FAKE_CLIPROXY).href)}), ${delayMs});\n`;

let dirs: Awaited<ReturnType<typeof tempHome>>;
let feed: Awaited<ReturnType<typeof startFakeReleaseFeed>>;
let app: HomeApp;
let proxyPort = 0;
let proxyKey = '';

const auth = (name: string) => path.join(dirs.home, 'proxy', 'auth', name);
const runFile = (name: string) => path.join(dirs.home, 'proxy', 'cliproxy', name);

beforeAll(async () => {
  dirs = await tempHome();
  feed = await startFakeReleaseFeed({
    workDir: dirs.root,
    ...CLIPROXY_ORIGINAL,
    releases: [
      { version: '6.9.40', script: runScript('6.9.40') },
      { version: '6.9.45', script: runScript('6.9.45', 1500) },
    ],
  });
  proxyPort = await prepareProxyHome(dirs.home, { appProxyExtra: '  keep_running_on_quit: true\n' });
  await fs.appendFile(path.join(dirs.home, 'config.yaml'), `network:\n  origin_overrides:\n    https://api.github.com: ${feed.origin}\n    https://github.com: ${feed.origin}\n`);
  // A paused agy account: it needs no binary.
  await fs.mkdir(path.join(dirs.home, 'proxy', 'auth'), { recursive: true, mode: 0o700 });
  await fs.writeFile(auth('antigravity-ada@example.com.json'), JSON.stringify({ type: 'antigravity', email: 'ada@example.com', access_token: 'ya29.a', refresh_token: 'r', project_id: 'p', disabled: true }), { mode: 0o600 });
  app = await startOnHome(dirs.home, dirs.agentDir);
});

afterAll(async () => {
  // Keep-running is on: stop both children before the app, or they would outlive the test.
  await app?.json('POST', '/api/proxy/cliproxy/stop');
  await app?.json('POST', '/api/proxy/proxy-stop');
  await app?.app.close();
  await feed?.close();
  await fs.rm(dirs.root, { recursive: true, force: true });
});

function until<T>(probe: () => Promise<T>, ok: (v: T) => boolean, what: string, ms = 15_000): Promise<T> {
  return waitFor(probe, ok, { what, ms });
}

const status = async () => (await app.json('GET', '/api/proxy/cliproxy')).body as { running: boolean; port: number | null; version: string };
const statePid = async () => (JSON.parse(await fs.readFile(runFile('state.json'), 'utf8')) as { pid: number }).pid;
const alive = isProcessAlive;
const servedBy = async () => {
  const lines = (await fs.readFile(runFile(path.join('logs', 'fake-cliproxy-messages.jsonl')), 'utf8')).trim().split('\n');
  return (JSON.parse(lines.at(-1)!) as { pid: number }).pid;
};
const askKiro = () =>
  fetch(`http://127.0.0.1:${proxyPort}/v1/messages`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-api-key': proxyKey, 'anthropic-version': '2023-06-01' },
    body: JSON.stringify({ model: 'kiro-claude-sonnet-4-6', max_tokens: 50, messages: [{ role: 'user', content: 'hi' }] }),
  });

describe('the managed CLIProxyAPI beside the engine, driven by the app', () => {
  it('is not started when the proxy starts with no active agy/kiro/gemini account', async () => {
    expect((await app.json('POST', '/api/proxy/cliproxy/install', { version: '6.9.40' })).body).toMatchObject({ installed: true, version: '6.9.40' });
    expect((await app.json('POST', '/api/proxy/proxy-start')).status).toBe(200);
    proxyKey = (YAML.parse(await fs.readFile(path.join(dirs.home, 'proxy', 'config.yaml'), 'utf8')) as { auth: { api_key: string } }).auth.api_key;
    await app.app.services.cliproxyDemand.settled();
    expect((await status()).running).toBe(false);
    await expect(fs.access(runFile('state.json'))).rejects.toThrow();
  });

  it('starts when a kiro account is imported while the proxy runs, and serves its models', async () => {
    const ide = path.join(dirs.root, 'kiro-auth-token.json');
    await fs.writeFile(ide, JSON.stringify({ accessToken: 'aoa-kiro', refreshToken: 'aor-kiro', expiresAt: '2099-01-01T00:00:00Z', authMethod: 'social', provider: 'Github', profileArn: 'arn:aws:codewhisperer:us-east-1:1:profile/KIRO1' }));
    expect((await app.json('POST', '/api/accounts/kiro/import', { path: ide })).status).toBe(200);
    await until(status, (s) => s.running, 'the lazy start');
    // The engine looks at proxy/auth/ again within a second: until then the model is unknown (404).
    const res = await until(askKiro, (r) => r.status !== 404, 'the engine to route kiro');
    expect(res.status).toBe(200);
    expect(((await res.json()) as { content: Array<{ text: string }> }).content[0]!.text).toBe('Hello from kiro-claude-sonnet-4-6');
    expect(await servedBy()).toBe(await statePid());
  });

  it('an update restarts the binary and a request arriving in the restart window is served by the new one', async () => {
    const oldPid = await statePid();
    const update = app.json('POST', '/api/proxy/cliproxy/install', {});
    await until(async () => alive(oldPid), (a) => !a, 'the old binary to stop');
    // The new one sleeps 1.5 s before it listens: the port refuses connections now.
    expect((await status()).running).toBe(false);
    const res = await askKiro();
    expect(res.status).toBe(200);
    expect(((await res.json()) as { content: Array<{ text: string }> }).content[0]!.text).toBe('Hello from kiro-claude-sonnet-4-6');
    expect((await update).body).toMatchObject({ version: '6.9.45', previousVersion: '6.9.40', restarted: true });
    const newPid = await statePid();
    expect(newPid).not.toBe(oldPid);
    expect(await servedBy()).toBe(newPid);
    await expect(fs.access(runFile('starting.json'))).rejects.toThrow(); // the marker goes with the restart
  });

  it('is adopted after an app restart with keep-running: same pid, still serving', async () => {
    const pid = await statePid();
    await app.app.close();
    expect(alive(pid)).toBe(true);
    app = await startOnHome(dirs.home, dirs.agentDir);
    expect(await status()).toMatchObject({ running: true, version: '6.9.45' });
    expect(await statePid()).toBe(pid);
    const res = await askKiro();
    expect(res.status).toBe(200);
    expect(await servedBy()).toBe(pid);
  });

  it('starts with the proxy when an active account exists', async () => {
    expect((await app.json('POST', '/api/proxy/cliproxy/stop')).body).toEqual({ stopped: true });
    expect((await app.json('POST', '/api/proxy/proxy-stop')).status).toBe(200);
    expect((await status()).running).toBe(false);
    expect((await app.json('POST', '/api/proxy/proxy-start')).status).toBe(200);
    await until(status, (s) => s.running, 'the start with the proxy');
    const res = await askKiro();
    expect(res.status).toBe(200);
  });

  it('notices the binary crashing within 2 s, and the engine then answers 503 saying to start it', async () => {
    process.kill(await statePid(), 'SIGKILL');
    const t0 = Date.now();
    await until(status, (s) => !s.running, 'the crash to be noticed');
    expect(Date.now() - t0).toBeLessThan(2_000);
    const res = await askKiro();
    expect(res.status).toBe(503);
    expect(((await res.json()) as { error: { message: string } }).error.message).toMatch(/^kiro accounts are served by CLIProxyAPI, which is not running: start it/);
  });
});
