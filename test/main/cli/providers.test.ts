import fs from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseAddArgs, runAdd } from '../../../main/cli/add.js';
import { CliError } from '../../../main/cli/args.js';
import type { CliIo } from '../../../main/cli/io.js';
import { runProviders } from '../../../main/cli/providers.js';
import { runTest } from '../../../main/cli/test-connection.js';
import { startFakeUpstream, type FakeUpstream } from '../../fixtures/fake-llm-upstream.js';
import { writeOfflineConfig } from '../../helpers/offline-config.js';
import { makeTempDir } from '../../helpers/temp-dir.js';

let dir: string;
let cleanup: () => Promise<void>;
let home: string;
let env: NodeJS.ProcessEnv;
let fake: FakeUpstream;

beforeAll(async () => {
  ({ dir, cleanup } = await makeTempDir('switchboard-cli-providers-'));
  home = path.join(dir, 'home');
  await writeOfflineConfig(home);
  env = { PATH: process.env.PATH, HOME: dir, SWITCHBOARD_HOME: home, SWITCHBOARD_AGENT_DIR: path.join(dir, 'agent'), SWITCHBOARD_LOG_LEVEL: 'silent' };
  fake = await startFakeUpstream();
});
afterAll(async () => {
  await fake.close();
  await cleanup();
});

function captureIo(): CliIo & { text: () => string; errors: () => string } {
  let out = '';
  let err = '';
  return { out: (t) => void (out += t), err: (t) => void (err += t), text: () => out, errors: () => err };
}

const message = { id: 'm1', type: 'message', role: 'assistant', content: [{ type: 'text', text: 'p' }], stop_reason: 'end_turn', usage: { input_tokens: 1, output_tokens: 1 } };

describe('switchboard providers', () => {
  it('lists the catalogue with format, base URL and where to get a key', async () => {
    const io = captureIo();
    expect(await runProviders([], env, io)).toBe(0);
    expect(io.text()).toMatch(/^glm\s+Z\.ai GLM \(international\)\s+anthropic\s+https:\/\/api\.z\.ai\/api\/anthropic\s+\(key: https:\/\/z\.ai\//m);
    expect(io.text()).toMatch(/^ollama .* \(no key needed\)$/m);
  });

  it('--json is the API answer; an unknown argument is a usage error', async () => {
    const io = captureIo();
    await runProviders(['--json'], env, io);
    expect(JSON.parse(io.text()).providers.some((p: { id: string }) => p.id === 'groq')).toBe(true);
    await expect(runProviders(['--bogus'], env, captureIo())).rejects.toThrow(CliError);
  });
});

describe('switchboard add', () => {
  it('adds an Anthropic-format provider with the key read from the prompt, tests it, never prints the key', async () => {
    fake.behave = () => ({ kind: 'json', body: message });
    const io = captureIo();
    const prompts: string[] = [];
    const code = await runAdd(['glm', '--base-url', fake.origin, '--name', 'my-glm'], env, io, async (prompt) => {
      prompts.push(prompt);
      return 'zai-secret-key-42';
    });
    expect(code).toBe(0);
    expect(prompts).toEqual(['API key for Z.ai GLM (international) (not shown): ']);
    expect(io.errors()).toContain('Get a key at https://z.ai/manage-apikey/apikey-list');
    expect(io.text()).toMatch(/Added profile my-glm \(direct\)/);
    expect(io.text()).toMatch(/Connection test: OK \(200\)/);
    expect(io.text() + io.errors()).not.toContain('zai-secret-key-42');
    const saved = JSON.parse(await fs.readFile(path.join(home, 'my-glm.settings.json'), 'utf8'));
    expect(saved.env).toMatchObject({ PROVIDER_BASE_URL: fake.origin, PROVIDER_AUTH_TOKEN: 'zai-secret-key-42', PROVIDER_MODEL: 'glm-5.3' });
  });

  it('exits 1 and says what to do when the test fails (the profile is kept, to fix the key later)', async () => {
    fake.behave = () => ({ kind: 'json', status: 401, body: { error: { message: 'invalid api key' } } });
    const io = captureIo();
    const code = await runAdd(['deepseek', '--key-stdin', '--base-url', fake.origin], env, io, async (_p, fromStdin) => (fromStdin ? 'bad-key' : ''));
    expect(code).toBe(1);
    expect(io.text()).toMatch(/Connection test: FAILED \(401\).*key was refused/);
  });

  it.each([
    [[], /name a provider/],
    [['nope'], /unknown provider 'nope'/],
    [['glm', '--via', 'sideways'], /--via takes 'proxy' or 'direct'/],
    [['glm', '--name'], /--name needs a value/],
    [['glm', '--frobnicate'], /unknown option '--frobnicate'/],
    [['glm', 'extra'], /unexpected argument 'extra'/],
    [['glm', '--name', 'my-glm'], /already exists/],
    [['glm', '--name', '../x'], /Profile names match/],
    [['openai', '--via', 'direct'], /OpenAI format/],
  ])('%j is a usage error: %s', async (argv, why) => {
    const error: unknown = await runAdd(argv, env, captureIo(), async () => 'k').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(CliError);
    expect((error as Error).message).toMatch(why);
  });

  it('parses the documented options', () => {
    expect(parseAddArgs(['kimi', '--key-stdin', '--name', 'k2', '--via', 'proxy'])).toEqual({ template: 'kimi', keyStdin: true, name: 'k2', via: 'proxy' });
  });
});

describe('switchboard test', () => {
  it('tests a profile: status, latency, and exit 0', async () => {
    fake.behave = () => ({ kind: 'json', body: message });
    const io = captureIo();
    expect(await runTest(['my-glm'], env, io)).toBe(0);
    expect(io.text()).toMatch(/^my-glm: OK \(200\), \d+ ms\. Connected/);
  });

  it('exit 1 with advice when it fails', async () => {
    fake.behave = () => ({ kind: 'text', status: 404, body: 'nope' });
    const io = captureIo();
    expect(await runTest(['my-glm'], env, io)).toBe(1);
    expect(io.text()).toMatch(/FAILED \(404\).*base URL is probably wrong/);
  });

  it('an unknown profile, no default, or a stray argument is a usage error', async () => {
    await expect(runTest(['ghost'], env, captureIo())).rejects.toThrow(/unknown profile 'ghost'/);
    await expect(runTest([], env, captureIo())).rejects.toThrow(/no default profile/);
    await expect(runTest(['a', 'b'], env, captureIo())).rejects.toThrow(/unexpected argument 'b'/);
  });
});
