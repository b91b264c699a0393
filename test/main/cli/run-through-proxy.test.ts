import { spawn } from 'node:child_process';
import fs from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { nodeEntry } from '../../../main/infra/node-entry.js';
import { startFakeUpstream, type FakeUpstream } from '../../fixtures/fake-llm-upstream.js';
import { startEngineProcess, type EngineProcess } from '../../fixtures/proxy-engine-process.js';
import { makeTempDir } from '../../helpers/temp-dir.js';

const STAND_IN_SOURCE = fileURLToPath(new URL('../../fixtures/stand-in-agent.mjs', import.meta.url));
const KEY = 'sk-sb-through-the-proxy-0000000000';

let dir: string;
let cleanup: () => Promise<void>;
let upstream: FakeUpstream;
let engine: EngineProcess;
let standIn: string;

beforeAll(async () => {
  ({ dir, cleanup } = await makeTempDir('switchboard-run-proxy-'));
  upstream = await startFakeUpstream();
  upstream.behave = (req) => ({
    kind: 'json',
    body: { id: 'msg_1', type: 'message', role: 'assistant', model: (req.body as { model: string }).model, content: [{ type: 'text', text: 'hello from upstream' }], stop_reason: 'end_turn', usage: { input_tokens: 3, output_tokens: 4 } },
  });
  engine = await startEngineProcess(
    dir,
    `server: { port: {{PORT}}, host: 127.0.0.1 }
auth: { api_key: ${KEY} }
upstreams:
  - { name: fake, format: anthropic, base_url: "${upstream.origin}", api_key: sk-upstream-1, models: [glm-4.6] }
`,
  );
  standIn = path.join(dir, 'stand-in-agent');
  await fs.copyFile(STAND_IN_SOURCE, standIn);
  await fs.chmod(standIn, 0o755);
}, 60_000);

afterAll(async () => {
  await engine?.stop();
  await upstream?.close();
  await cleanup();
});

describe('switchboard run through the real proxy engine', () => {
  it('the agent reaches the upstream through the proxy with the env the profile gave it', { timeout: 60_000 }, async () => {
    const home = path.join(dir, 'home');
    await fs.mkdir(home, { recursive: true });
    await fs.writeFile(
      path.join(home, 'viaproxy.settings.json'),
      JSON.stringify({ env: { PROVIDER_BASE_URL: engine.base, PROVIDER_AUTH_TOKEN: KEY, PROVIDER_MODEL: 'glm-4.6' } }),
    );
    const entry = nodeEntry('main/cli/main');
    const child = spawn(entry.command, [...entry.args, 'run', 'viaproxy', '--agent', standIn, '--', '--request'], {
      env: { PATH: process.env.PATH, HOME: dir, SWITCHBOARD_HOME: home, ...entry.env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    child.stdout.on('data', (c: Buffer) => (out += c.toString()));
    child.stderr.on('data', (c: Buffer) => (err += c.toString()));
    const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
    expect({ code, err }).toEqual({ code: 0, err: '' });
    const answer = JSON.parse(out.trim().split('\n').at(-1)!);
    expect(answer.status).toBe(200);
    expect(JSON.parse(answer.body).content[0].text).toBe('hello from upstream');
    expect(upstream.seen).toHaveLength(1);
    expect(upstream.seen[0]!.url).toBe('/v1/messages');
    expect(upstream.seen[0]!.key).toBe('sk-upstream-1');
    expect((upstream.seen[0]!.body as { model: string }).model).toBe('glm-4.6');
  });
});
