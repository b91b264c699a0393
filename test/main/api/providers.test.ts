import fs from 'node:fs/promises';
import path from 'node:path';
import YAML from 'yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { E } from '../../../main/api/error-texts.js';
import { launchEnv } from '../../../main/services/profiles/launch-env.js';
import { startFakeUpstream, type FakeUpstream } from '../../fixtures/fake-llm-upstream.js';
import { prepareProxyHome } from '../../fixtures/proxy-home.js';
import { OFFLINE_CONFIG_YAML } from '../../helpers/offline-config.js';
import { startTestApp, type TestApp } from '../../helpers/app.js';

let app: TestApp;
let fake: FakeUpstream;

/** What Claude Code sends first: a streaming-capable Messages request with system, metadata and tools. */
const claudeCodeRequest = (model: string) => ({
  model,
  max_tokens: 32,
  system: [{ type: 'text', text: 'You are Claude Code.' }],
  metadata: { user_id: 'user_abc_account__session_123' },
  messages: [{ role: 'user', content: [{ type: 'text', text: 'Say hi' }] }],
  tools: [{ name: 'Bash', description: 'run a command', input_schema: { type: 'object', properties: { command: { type: 'string' } } } }],
  stream: false,
});

beforeAll(async () => {
  fake = await startFakeUpstream();
  app = await startTestApp({
    before: async ({ home }) => {
      await prepareProxyHome(home);
      // Outbound origins of the catalogue reach the local fake (decisions §4.1).
      const config = `${OFFLINE_CONFIG_YAML}network:\n  origin_overrides:\n    "https://api.x.ai": "${fake.origin}"\n`;
      await fs.writeFile(path.join(home, 'config.yaml'), config, { mode: 0o600 });
    },
  });
});

afterAll(async () => {
  await app?.json('POST', '/api/proxy/proxy-stop');
  await Promise.all([fake?.close(), app?.stop()]);
});

async function profileEnv(file: string): Promise<Record<string, string>> {
  return launchEnv((JSON.parse(await fs.readFile(file, 'utf8')) as { env: unknown }).env);
}

describe('GET /api/providers/catalog', () => {
  it('lists the catalogue with formats and tier models, and no secrets', async () => {
    const { status, body } = await app.json('GET', '/api/providers/catalog');
    expect(status).toBe(200);
    const glm = body.providers.find((p: { id: string }) => p.id === 'glm');
    expect(glm).toMatchObject({ format: 'anthropic', baseUrl: 'https://api.z.ai/api/anthropic', origin: 'builtin' });
    expect(Object.keys(glm.models).sort()).toEqual(['default', 'haiku', 'opus', 'sonnet']);
  });
});

describe('POST /api/providers/test', () => {
  it('success through network.origin_overrides: status, latency and the models the endpoint lists', async () => {
    fake.behave = () => ({ kind: 'json', body: { data: [{ id: 'grok-4.3' }, { id: 'grok-3-mini' }] } });
    const { status, body } = await app.json('POST', '/api/providers/test', { template: 'xai', apiKey: 'xai-secret-key' });
    expect(status).toBe(200);
    expect(body).toMatchObject({ ok: true, status: 200, models: ['grok-3-mini', 'grok-4.3'] });
    expect(typeof body.latencyMs).toBe('number');
  });

  it('401 says what to do', async () => {
    fake.behave = () => ({ kind: 'json', status: 401, body: { error: { message: 'bad key' } } });
    const { status, body } = await app.json('POST', '/api/providers/test', { baseUrl: `${fake.origin}/v1`, format: 'openai', apiKey: 'nope' });
    expect(status).toBe(200);
    expect(body).toMatchObject({ ok: false, status: 401 });
    expect(body.message).toMatch(/key was refused/);
  });

  it('timeout says so', async () => {
    fake.behave = () => ({ kind: 'hang' });
    const { body } = await app.json('POST', '/api/providers/test', { baseUrl: `${fake.origin}/v1`, format: 'openai', timeoutMs: 200 });
    expect(body).toMatchObject({ ok: false, status: null });
    expect(body.message).toMatch(/No answer within 200 ms/);
  });

  it.each([
    [{}, 400, E.invalidProviderRequest],
    [{ baseUrl: 'https://x.test/v1' }, 400, E.invalidProviderRequest],
    [{ baseUrl: 'ftp://x.test', format: 'openai' }, 400, E.invalidProviderRequest],
    [{ template: 'no-such-provider' }, 404, E.providerNotFound],
  ])('%j → %i %s', async (input, code, error) => {
    const { status, body } = await app.json('POST', '/api/providers/test', input);
    expect(status).toBe(code);
    expect(body.error).toBe(error);
  });
});

describe('POST /api/providers', () => {
  it('an Anthropic-format template becomes a direct profile, and a Claude Code request with its env succeeds', async () => {
    fake.seen.length = 0;
    fake.behave = (req) =>
      req.url === '/v1/messages'
        ? { kind: 'json', body: { id: 'msg_1', type: 'message', role: 'assistant', model: 'deepseek-flash', content: [{ type: 'text', text: 'hi' }], stop_reason: 'end_turn', usage: { input_tokens: 5, output_tokens: 1 } } }
        : { kind: 'text', status: 404, body: 'no' };
    const key = 'sk-deepseek-secret-0001';
    const res = await app.request('POST', '/api/providers', { template: 'deepseek', apiKey: key, baseUrl: fake.origin });
    const text = await res.text();
    expect(res.status).toBe(201);
    expect(text).not.toContain(key);
    const body = JSON.parse(text);
    expect(body).toMatchObject({ profile: { name: 'deepseek', via: 'direct', baseUrl: fake.origin }, test: { ok: true } });
    expect(body.upstream).toBeUndefined();

    const env = await profileEnv(body.profile.path);
    expect(env).toMatchObject({ ANTHROPIC_BASE_URL: fake.origin, ANTHROPIC_AUTH_TOKEN: key, ANTHROPIC_MODEL: 'deepseek-flash', ANTHROPIC_DEFAULT_OPUS_MODEL: 'deepseek-v4-pro' });
    const cc = await fetch(`${env.ANTHROPIC_BASE_URL}/v1/messages`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${env.ANTHROPIC_AUTH_TOKEN}`, 'anthropic-version': '2023-06-01' },
      body: JSON.stringify(claudeCodeRequest(env.ANTHROPIC_MODEL!)),
    });
    expect(cc.status).toBe(200);
    expect(fake.seen.at(-1)).toMatchObject({ url: '/v1/messages', key });
  });

  it('an OpenAI-format template becomes a proxy upstream (comments kept) and a routed profile; Claude Code gets an answer through the engine', async () => {
    fake.seen.length = 0;
    fake.behave = (req) =>
      req.url === '/v1/chat/completions'
        ? { kind: 'json', body: { id: 'c1', object: 'chat.completion', created: 1, model: 'fast-model', choices: [{ index: 0, message: { role: 'assistant', content: 'hello from groq' }, finish_reason: 'stop' }], usage: { prompt_tokens: 5, completion_tokens: 3, total_tokens: 8 } } }
        : { kind: 'json', body: { data: [{ id: 'fast-model' }] } };
    const key = 'gsk-groq-secret-0002';
    const models = { default: 'fast-model', opus: 'fast-model', sonnet: 'fast-model', haiku: 'fast-model' };
    const res = await app.request('POST', '/api/providers', { template: 'groq', apiKey: key, baseUrl: `${fake.origin}/v1`, models });
    const text = await res.text();
    expect(res.status, text).toBe(201);
    expect(text).not.toContain(key);
    const body = JSON.parse(text);
    expect(body).toMatchObject({ profile: { name: 'groq', via: 'proxy' }, upstream: { name: 'groq', format: 'openai', models: ['fast-model'] }, proxy: { running: true }, test: { ok: true } });

    const yamlText = await fs.readFile(path.join(app.home, 'proxy', 'config.yaml'), 'utf8');
    expect(yamlText).toContain('# test proxy config'); // the file's comment survived the edit
    const yaml = YAML.parse(yamlText) as { auth: { api_key: string }; upstreams: Array<{ name: string; api_key?: string; base_url: string }> };
    expect(yaml.upstreams.map((u) => u.name)).toEqual(['openai', 'anthropic', 'groq']);
    expect(yaml.upstreams[2]).toMatchObject({ api_key: key, base_url: `${fake.origin}/v1` });

    const env = await profileEnv(body.profile.path);
    expect(env.ANTHROPIC_BASE_URL).toBe(body.profile.baseUrl);
    expect(env.ANTHROPIC_AUTH_TOKEN).toBe(yaml.auth.api_key); // the proxy's key, so key rotation finds the profile
    const cc = await fetch(`${env.ANTHROPIC_BASE_URL}/v1/messages`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${env.ANTHROPIC_AUTH_TOKEN}`, 'anthropic-version': '2023-06-01' },
      body: JSON.stringify(claudeCodeRequest(env.ANTHROPIC_MODEL!)),
    });
    const answer = (await cc.json()) as { type: string; content: Array<{ text?: string }> };
    expect(cc.status).toBe(200);
    expect(answer.type).toBe('message');
    expect(answer.content[0]!.text).toBe('hello from groq');
    expect(fake.seen.find((s) => s.url === '/v1/chat/completions')).toMatchObject({ key });

    const profileTest = await app.json('POST', '/api/settings/groq/test', {});
    expect(profileTest.status).toBe(200);
    expect(profileTest.body).toMatchObject({ ok: true, status: 200 });
    expect(profileTest.body.models).toContain('fast-model');
  });

  it('a taken name is 409 Profile already exists, and nothing is written', async () => {
    const before = await fs.readFile(path.join(app.home, 'proxy', 'config.yaml'), 'utf8');
    const { status, body } = await app.json('POST', '/api/providers', { template: 'groq', apiKey: 'k', baseUrl: `${fake.origin}/v1` });
    expect(status).toBe(409);
    expect(body.error).toBe('Profile already exists');
    expect(await fs.readFile(path.join(app.home, 'proxy', 'config.yaml'), 'utf8')).toBe(before);
  });

  it.each([
    [{ template: 'nope', apiKey: 'k' }, 404, E.providerNotFound],
    [{ template: 'glm' }, 400, E.apiKeyRequired],
    [{ template: 'openai', apiKey: 'k', via: 'direct' }, 400, E.providerNeedsProxy],
    [{ template: 'glm', apiKey: 'k', name: '../evil' }, 400, E.invalidProfile],
    [{ template: 'glm', apiKey: 'k', baseUrl: 'not a url' }, 400, E.invalidProviderRequest],
    [{ apiKey: 'k' }, 400, E.invalidProviderRequest],
  ])('%j → %i %s', async (input, code, error) => {
    const { status, body } = await app.json('POST', '/api/providers', input);
    expect(status).toBe(code);
    expect(body.error).toBe(error);
    expect(JSON.stringify(body)).not.toContain('"k"');
  });

  it('POST /api/settings/:profile/test on a missing profile is 404 Settings not found', async () => {
    const { status, body } = await app.json('POST', '/api/settings/ghost/test', {});
    expect(status).toBe(404);
    expect(body.error).toBe(E.settingsNotFound);
  });
});
