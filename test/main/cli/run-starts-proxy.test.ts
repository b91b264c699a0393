import { spawn } from 'node:child_process';
import fs from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isProcessAlive } from '../../../main/infra/process-alive.js';
import { nodeEntry } from '../../../main/infra/node-entry.js';
import { startFakeUpstream, type FakeUpstream } from '../../fixtures/fake-llm-upstream.js';
import { freePort } from '../../helpers/free-port.js';
import { makeTempDir } from '../../helpers/temp-dir.js';

const STAND_IN_SOURCE = fileURLToPath(new URL('../../fixtures/stand-in-agent.mjs', import.meta.url));
const KEY = 'sk-sb-run-starts-the-proxy-00000000';

let dir: string;
let cleanup: () => Promise<void>;
let upstream: FakeUpstream;
let standIn: string;
let proxyPid: number | undefined;

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
  if (proxyPid !== undefined && isProcessAlive(proxyPid)) process.kill(proxyPid, 'SIGTERM');
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

describe('switchboard run on a profile routed through a stopped proxy (issue 29.4)', () => {
  it('starts the proxy, the agent is served through it, and the proxy keeps running afterwards', { timeout: 90_000 }, async () => {
    const home = path.join(dir, 'home');
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
    // The proxy's key is the app's (config.yaml proxy.auth): a custom one the profile already holds.
    await fs.writeFile(path.join(home, 'config.yaml'), `proxy:\n  auth:\n    api_key: ${KEY}\n`, { mode: 0o600 });
    await fs.writeFile(
      path.join(home, 'viaproxy.settings.json'),
      JSON.stringify({ env: { PROVIDER_BASE_URL: `http://127.0.0.1:${port}`, PROVIDER_AUTH_TOKEN: KEY, PROVIDER_MODEL: 'glm-4.6' } }),
    );
    const r = await runCli(home, ['run', 'viaproxy', '--agent', standIn, '--', '--request']);
    const state = JSON.parse(await fs.readFile(path.join(home, 'proxy', 'proxy.json'), 'utf8')) as { pid: number; port: number };
    proxyPid = state.pid;
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

  it('a profile that does not point at the proxy starts nothing', { timeout: 60_000 }, async () => {
    const home = path.join(dir, 'home-direct');
    await fs.mkdir(home, { recursive: true });
    await fs.writeFile(path.join(home, 'direct.settings.json'), JSON.stringify({ env: { PROVIDER_BASE_URL: upstream.origin, PROVIDER_AUTH_TOKEN: 'sk-direct', PROVIDER_MODEL: 'glm-4.6' } }));
    const r = await runCli(home, ['run', 'direct', '--agent', standIn, '--', '--request']);
    expect({ code: r.code, err: r.err }).toEqual({ code: 0, err: '' });
    await expect(fs.access(path.join(home, 'proxy', 'proxy.json'))).rejects.toThrow();
  });
});
