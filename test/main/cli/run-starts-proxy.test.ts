import { spawn } from 'node:child_process';
import fs from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isProcessAlive } from '../../../main/infra/process-alive.js';
import { nodeEntry } from '../../../main/infra/node-entry.js';
import { startFakeUpstream, type FakeUpstream } from '../../fixtures/fake-llm-upstream.js';
import { freePort } from '../../helpers/free-port.js';
import { OFFLINE_CONFIG_YAML } from '../../helpers/offline-config.js';
import { waitUntil } from '../../../main/infra/process-wait.js';
import { makeTempDir } from '../../helpers/temp-dir.js';

const STAND_IN_SOURCE = fileURLToPath(new URL('../../fixtures/stand-in-agent.mjs', import.meta.url));
const KEY = 'sk-sb-run-starts-the-proxy-00000000';

let dir: string;
let cleanup: () => Promise<void>;
let upstream: FakeUpstream;
let standIn: string;
/** Proxies the runs left running (read from each home's proxy/proxy.json), stopped in afterAll. */
const proxyHomes: string[] = [];

beforeAll(async () => {
  ({ dir, cleanup } = await makeTempDir('switchboard-run-starts-proxy-'));
  upstream = await startFakeUpstream();
  upstream.behave = (req) => ({
    kind: 'json',
    body: { id: 'msg_1', type: 'message', role: 'assistant', model: (req.body as { model: string }).model, content: [{ type: 'text', text: 'hello via a started proxy' }], stop_reason: 'end_turn', usage: { input_tokens: 3, output_tokens: 4 } },
  });
  standIn = path.join(dir, 'stand-in-agent');
  await fs.copyFile(STAND_IN_SOURCE, standIn);
  await fs.chmod(standIn, 0o755);
}, 60_000);

afterAll(async () => {
  for (const home of proxyHomes) {
    const state = await fs.readFile(path.join(home, 'proxy', 'proxy.json'), 'utf8').then((t) => JSON.parse(t) as { pid: number }, () => null);
    if (state && isProcessAlive(state.pid)) process.kill(state.pid, 'SIGTERM');
  }
  await upstream?.close();
  await cleanup();
});

function runCli(home: string, args: string[]): Promise<{ code: number | null; out: string; err: string }> {
  const entry = nodeEntry('main/cli/main');
  const child = spawn(entry.command, [...entry.args, ...args], {
    env: { PATH: process.env.PATH, HOME: dir, SWITCHBOARD_HOME: home, ...entry.env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stdout.on('data', (c: Buffer) => (out += c.toString()));
  child.stderr.on('data', (c: Buffer) => (err += c.toString()));
  return new Promise((resolve) => child.once('exit', (code) => resolve({ code, out, err })));
}

/** A home whose profile `viaproxy` is routed through a stopped proxy on a free port; the app's proxy key is the profile's. */
async function proxiedHome(name: string): Promise<{ home: string; port: number }> {
  const home = path.join(dir, name);
  const port = await freePort();
  await fs.mkdir(path.join(home, 'proxy'), { recursive: true });
  await fs.writeFile(
    path.join(home, 'proxy', 'config.yaml'),
    `server: { port: ${port}, host: 127.0.0.1 }
auth: { api_key: ${KEY} }
upstreams:
  - { name: fake, format: anthropic, base_url: "${upstream.origin}", api_key: sk-upstream-1, models: [glm-4.6] }
`,
  );
  await fs.writeFile(path.join(home, 'config.yaml'), appConfig(), { mode: 0o600 });
  await fs.writeFile(
    path.join(home, 'viaproxy.settings.json'),
    JSON.stringify({ env: { PROVIDER_BASE_URL: `http://127.0.0.1:${port}`, PROVIDER_AUTH_TOKEN: KEY, PROVIDER_MODEL: 'glm-4.6' } }),
  );
  proxyHomes.push(home);
  return { home, port };
}

// The proxy's key is the app's (config.yaml proxy.auth): a custom one the profile already holds.
const appConfig = () => OFFLINE_CONFIG_YAML.replace('proxy:\n', `proxy:\n  auth:\n    api_key: ${KEY}\n`);

describe('switchboard run on a profile routed through a stopped proxy (issue 29.4)', () => {
  it('starts the proxy, the agent is served through it, and the proxy keeps running afterwards', { timeout: 90_000 }, async () => {
    const { home, port } = await proxiedHome('home');
    const r = await runCli(home, ['run', 'viaproxy', '--agent', standIn, '--', '--request']);
    const state = JSON.parse(await fs.readFile(path.join(home, 'proxy', 'proxy.json'), 'utf8')) as { pid: number; port: number };
    expect({ code: r.code, err: r.err, out: r.code === 0 ? '' : r.out }).toEqual({ code: 0, err: '', out: '' });
    const answer = JSON.parse(r.out.trim().split('\n').at(-1)!);
    expect(answer.status).toBe(200);
    expect(JSON.parse(answer.body).content[0].text).toBe('hello via a started proxy');
    expect(upstream.seen).toHaveLength(1);
    expect(state.port).toBe(port);
    expect(isProcessAlive(state.pid)).toBe(true);
    const health = await fetch(`http://127.0.0.1:${port}/`);
    expect(health.ok).toBe(true);

    // A second run adopts the proxy the first one left running: no second start, same pid.
    const again = await runCli(home, ['run', 'viaproxy', '--agent', standIn, '--', '--request']);
    expect({ code: again.code, err: again.err }).toEqual({ code: 0, err: '' });
    const after = JSON.parse(await fs.readFile(path.join(home, 'proxy', 'proxy.json'), 'utf8')) as { pid: number };
    expect(after.pid).toBe(state.pid);
    expect(upstream.seen).toHaveLength(2);
  });

  it('with a serve owning the home, run starts the proxy through its API: the app reports it running', { timeout: 90_000 }, async () => {
    const { home, port } = await proxiedHome('home-serve');
    const entry = nodeEntry('main/cli/main');
    const serve = spawn(entry.command, [...entry.args, 'serve', '--port', '0'], {
      env: { PATH: process.env.PATH, HOME: dir, SWITCHBOARD_HOME: home, SWITCHBOARD_AGENT_DIR: path.join(dir, 'agent'), ...entry.env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let serveOut = '';
    serve.stdout.on('data', (c: Buffer) => (serveOut += c.toString()));
    try {
      expect(await waitUntil(() => /listening on (\S+)/.test(serveOut) || serve.exitCode !== null, 30_000, 20)).toBe(true);
      const url = /listening on (\S+)/.exec(serveOut)![1]!;
      expect(((await (await fetch(`${url}/api/proxy/proxy-status`)).json()) as { running: boolean }).running).toBe(false);
      const r = await runCli(home, ['run', 'viaproxy', '--agent', standIn, '--', '--request']);
      expect({ code: r.code, err: r.err }).toEqual({ code: 0, err: '' });
      expect(JSON.parse(r.out.trim().split('\n').at(-1)!).status).toBe(200);
      const status = (await (await fetch(`${url}/api/proxy/proxy-status`)).json()) as { running: boolean; port: number };
      expect(status).toMatchObject({ running: true, port });
      // The app owns it: stopping it through the app's API stops it.
      expect((await fetch(`${url}/api/proxy/proxy-stop`, { method: 'POST' })).ok).toBe(true);
      expect(((await (await fetch(`${url}/api/proxy/proxy-status`)).json()) as { running: boolean }).running).toBe(false);
    } finally {
      serve.kill('SIGTERM');
      if (serve.exitCode === null) await new Promise((resolve) => serve.once('exit', resolve));
    }
  });

  it('a profile that does not point at the proxy starts nothing', { timeout: 60_000 }, async () => {
    const home = path.join(dir, 'home-direct');
    await fs.mkdir(home, { recursive: true });
    await fs.writeFile(path.join(home, 'direct.settings.json'), JSON.stringify({ env: { PROVIDER_BASE_URL: upstream.origin, PROVIDER_AUTH_TOKEN: 'sk-direct', PROVIDER_MODEL: 'glm-4.6' } }));
    const r = await runCli(home, ['run', 'direct', '--agent', standIn, '--', '--request']);
    expect({ code: r.code, err: r.err }).toEqual({ code: 0, err: '' });
    await expect(fs.access(path.join(home, 'proxy', 'proxy.json'))).rejects.toThrow();
  });
});
