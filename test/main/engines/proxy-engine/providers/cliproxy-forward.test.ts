import fs from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fakeMessageEvents } from '../../../../fixtures/fake-cliproxy/messages.mjs';
import { startFakeCliproxy, type FakeCliproxyProcess } from '../../../../fixtures/fake-cliproxy-process.js';
import { startEngineProcess, type EngineProcess } from '../../../../fixtures/proxy-engine-process.js';
import { makeTempDir } from '../../../../helpers/temp-dir.js';
import { waitFor } from '../../../../helpers/wait.js';

/**
 * agy / kiro / gemini accounts in the built-in engine: their models go to the managed CLIProxyAPI
 * (here the fake binary, started as the app's runner starts it) in Anthropic format (decisions §4.1).
 */
const KEY = 'sk-sb-proxy-client-key-0123456789';
const SECRET = 'engine-management-secret-0123456789';

let dir: string;
let cleanup: () => Promise<void>;
let binary: FakeCliproxyProcess;
let engine: EngineProcess;

const auth = (name: string) => path.join(dir, 'auth', name);

beforeAll(async () => {
  ({ dir, cleanup } = await makeTempDir('sb-cliproxy-fwd-'));
  await fs.mkdir(path.join(dir, 'auth'));
  await fs.writeFile(auth('antigravity-ada@example.com.json'), JSON.stringify({ type: 'antigravity', email: 'ada@example.com', access_token: 'ya29.agy', refresh_token: 'r', project_id: 'p1' }));
  await fs.writeFile(auth('kiro-builder-id.json'), JSON.stringify({ type: 'kiro', email: 'kiro@example.com', access_token: 'kiro-token' }));
  await fs.writeFile(auth('gemini-gem@example.com-p1.json'), JSON.stringify({ type: 'gemini', email: 'gem@example.com', disabled: true, token: { access_token: 'ya29.gem' } }));
  binary = await startFakeCliproxy(dir);
  engine = await startEngineProcess(dir, `server: { port: {{PORT}}, host: 127.0.0.1 }\nauth: { api_key: ${KEY}, management_secret: ${SECRET} }\n`);
});

afterAll(async () => {
  await engine?.stop();
  await binary?.stop();
  await cleanup?.();
});

const claudeCodeBody = (model: string) => ({
  model,
  max_tokens: 32000,
  stream: true,
  system: [
    { type: 'text', text: "You are Claude Code, Anthropic's official CLI for Claude." },
    { type: 'text', text: 'Work in /repo.', cache_control: { type: 'ephemeral' } },
  ],
  messages: [{ role: 'user', content: [{ type: 'text', text: 'list the files' }] }],
  tools: [{ name: 'Bash', description: 'Run a command', input_schema: { type: 'object', properties: { command: { type: 'string' } }, required: ['command'] } }],
  thinking: { type: 'enabled', budget_tokens: 4000 },
  metadata: { user_id: 'user_abc_account__session_1234' },
});

function post(pathname: string, body: unknown, headers: Record<string, string> = {}, signal?: AbortSignal): Promise<Response> {
  return fetch(engine.base + pathname, { method: 'POST', headers: { 'content-type': 'application/json', 'x-api-key': KEY, ...headers }, body: JSON.stringify(body), signal });
}

const claudeCodeHeaders = { 'anthropic-version': '2023-06-01', 'anthropic-beta': 'claude-code-20250219,interleaved-thinking-2025-05-14', 'user-agent': 'claude-cli/2.1.0 (external, cli)' };

async function lastLogEntry(): Promise<Record<string, unknown>> {
  const res = await fetch(`${engine.base}/v0/management/requests?limit=1`, { headers: { authorization: `Bearer ${SECRET}` } });
  const { requests } = (await res.json()) as { requests: Array<Record<string, unknown>> };
  return requests[0]!;
}

async function until(cond: () => Promise<boolean>, what: string, ms = 5_000): Promise<void> {
  await waitFor(cond, Boolean, { what, ms });
}

describe('forwarding agy, kiro and gemini models to the managed CLIProxyAPI', () => {
  it('passes a Claude Code streaming request to an agy model through byte for byte, and logs it as via cliproxy', async () => {
    const body = claudeCodeBody('gemini-3-pro-preview');
    const res = await post('/v1/messages?beta=true', body, claudeCodeHeaders);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/event-stream/);
    expect(await res.text()).toBe(fakeMessageEvents('gemini-3-pro-preview').join(''));

    const seen = (await binary.messages()).at(-1)!;
    expect(seen.url).toBe('/v1/messages?beta=true');
    expect(seen.body).toEqual(body);
    expect(seen.headers.authorization).toBe(`Bearer ${binary.apiKey}`);
    expect(seen.headers['x-api-key']).toBeUndefined(); // the client's proxy key stays with the engine
    expect(seen.headers['anthropic-version']).toBe('2023-06-01');
    expect(seen.headers['anthropic-beta']).toBe(claudeCodeHeaders['anthropic-beta']);

    await until(async () => (await lastLogEntry())?.modelRequested === 'gemini-3-pro-preview', 'the request log entry');
    const entry = await lastLogEntry();
    expect(entry).toMatchObject({ upstream: 'agy', via: 'cliproxy', modelRequested: 'gemini-3-pro-preview', modelSent: 'gemini-3-pro-preview', status: 200, outcome: 'ok', tokens: { input: 21, output: 7, cacheRead: 5, cacheWrite: 0 } });
    expect(entry.account).toBeUndefined(); // the binary chose the account; the engine does not pretend to know
  });

  it('translates an OpenAI-format client to a kiro model and back, whole and streaming', async () => {
    const whole = await post('/v1/chat/completions', { model: 'kiro-claude-sonnet-4-6', messages: [{ role: 'system', content: 'be brief' }, { role: 'user', content: 'hi' }] });
    expect(whole.status).toBe(200);
    const json = (await whole.json()) as { object: string; model: string; choices: Array<{ message: { content: string } }>; usage: { prompt_tokens: number; completion_tokens: number } };
    expect(json.object).toBe('chat.completion');
    expect(json.model).toBe('kiro-claude-sonnet-4-6');
    expect(json.choices[0]!.message.content).toBe('Hello from kiro-claude-sonnet-4-6');
    expect(json.usage).toMatchObject({ prompt_tokens: 26, completion_tokens: 7 });
    const seen = (await binary.messages()).at(-1)!;
    expect(seen.url).toBe('/v1/messages');
    expect(seen.body).toMatchObject({ model: 'kiro-claude-sonnet-4-6', system: 'be brief', messages: [{ role: 'user' }], max_tokens: 8192 });

    const streamed = await post('/v1/chat/completions', { model: 'kiro-claude-sonnet-4-6', stream: true, messages: [{ role: 'user', content: 'hi' }] });
    const text = await streamed.text();
    expect(text).toContain('"content":"Hello from "');
    expect(text).toContain('"finish_reason":"stop"');
    expect(text.trimEnd().endsWith('data: [DONE]')).toBe(true);
    await until(async () => (await lastLogEntry())?.format === 'openai' && (await lastLogEntry()).upstream === 'kiro', 'the kiro log entry');
    expect(await lastLogEntry()).toMatchObject({ upstream: 'kiro', via: 'cliproxy', status: 200 });
  });

  it('lists the active providers’ models with owned_by = the provider; a paused provider is neither listed nor routed', async () => {
    const list = (await (await fetch(`${engine.base}/v1/models`, { headers: { authorization: `Bearer ${KEY}` } })).json()) as { data: Array<{ id: string; owned_by: string }> };
    const owned = (p: string) => list.data.filter((m) => m.owned_by === p).map((m) => m.id);
    expect(owned('agy')).toContain('claude-opus-4-5-thinking');
    expect(owned('kiro')).toEqual(['kiro-claude-sonnet-4-6', 'kiro-claude-opus-4-7', 'kiro-claude-haiku-4-5']);
    expect(owned('gemini')).toEqual([]);
    const paused = await post('/v1/messages', { model: 'gemini-2.5-pro', max_tokens: 10, messages: [{ role: 'user', content: 'hi' }] }, { 'anthropic-version': '2023-06-01' });
    expect(paused.status).toBe(404);
    const before = (await binary.messages()).length;

    // Resumed: routed within a second.
    await fs.writeFile(auth('gemini-gem@example.com-p1.json'), JSON.stringify({ type: 'gemini', email: 'gem@example.com', token: { access_token: 'ya29.gem' } }));
    let status = 0;
    await until(async () => {
      const r = await post('/v1/messages', { model: 'gemini-2.5-pro', max_tokens: 10, messages: [{ role: 'user', content: 'hi' }] }, { 'anthropic-version': '2023-06-01' });
      status = r.status;
      await r.text();
      return status === 200;
    }, 'the resumed gemini account to be routed');
    expect((await binary.messages()).length).toBe(before + 1); // the paused attempt never reached the binary
  });

  it('asks the binary to count tokens (it serves /v1/messages/count_tokens)', async () => {
    const res = await post('/v1/messages/count_tokens', { model: 'kiro-claude-haiku-4-5', messages: [{ role: 'user', content: 'hi' }] }, { 'anthropic-version': '2023-06-01' });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ input_tokens: 42 });
    expect((await binary.messages()).at(-1)!.url).toBe('/v1/messages/count_tokens');
  });

  it('passes the binary’s own errors on in the client’s format', async () => {
    // A model the engine routes (through an alias) that the fake answers with a 400.
    const res = await post('/api/provider/agy/v1/messages', { model: 'fake-error-400', max_tokens: 10, messages: [{ role: 'user', content: 'hi' }] }, { 'anthropic-version': '2023-06-01' });
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({ type: 'error', error: { type: 'api_error', message: 'fake CLIProxyAPI failure 400' } });
  });

  it('says the binary refused the engine’s key, and what to do', async () => {
    const config = path.join(dir, 'cliproxy', 'config.yaml');
    const original = await fs.readFile(config, 'utf8');
    await fs.writeFile(config, original.replace(binary.apiKey, 'sb-cliproxy-some-other-key'));
    try {
      const res = await post('/v1/messages', { model: 'gemini-3-pro-preview', max_tokens: 10, messages: [{ role: 'user', content: 'hi' }] }, { 'anthropic-version': '2023-06-01' });
      expect(res.status).toBe(502);
      const body = (await res.json()) as { type: string; error: { message: string } };
      expect(body.type).toBe('error');
      expect(body.error.message).toMatch(/^CLIProxyAPI refused the engine's key \(401\).*restart it from the dashboard \(Proxy → CLIProxyAPI\)/);
    } finally {
      await fs.writeFile(config, original);
    }
  });

  it('waits out a refused connection while the binary restarts, then is served by the new process', async () => {
    const { port } = binary;
    const marker = path.join(dir, 'cliproxy', 'starting.json');
    await fs.writeFile(marker, JSON.stringify({ since: Date.now() }));
    await binary.stop();
    const pending = post('/v1/messages', { model: 'gemini-3-pro-preview', max_tokens: 10, messages: [{ role: 'user', content: 'hi' }] }, { 'anthropic-version': '2023-06-01' });
    await new Promise((r) => setTimeout(r, 600)); // the request is now polling a closed port
    binary = await startFakeCliproxy(dir, { port });
    await fs.rm(marker);
    const res = await pending;
    expect(res.status).toBe(200);
    expect(((await res.json()) as { content: Array<{ text: string }> }).content[0]!.text).toBe('Hello from gemini-3-pro-preview');
    expect((await binary.messages()).at(-1)!.pid).toBe(binary.pid);
  });

  it('answers 503 at once when the binary is not running, saying whether to install or start it', async () => {
    await binary.stop();
    const ask = async () => {
      const t0 = Date.now();
      // A model only agy lists (gemini, resumed above, shares the gemini-* ids).
      const res = await post('/v1/messages', { model: 'claude-opus-4-5-thinking', max_tokens: 10, messages: [{ role: 'user', content: 'hi' }] }, { 'anthropic-version': '2023-06-01' });
      return { status: res.status, body: (await res.json()) as { type: string; error: { type: string; message: string } }, ms: Date.now() - t0 };
    };
    const missing = await ask();
    expect(missing.status).toBe(503);
    expect(missing.body.type).toBe('error');
    expect(missing.body.error.message).toBe('agy accounts are served by CLIProxyAPI, which is not installed: install it on the dashboard (Proxy → CLIProxyAPI) or with `switchboard cliproxy install`');
    expect(missing.ms).toBeLessThan(3_000); // no retry window: nothing is starting it

    await fs.mkdir(path.join(dir, 'bin'), { recursive: true });
    await fs.writeFile(path.join(dir, 'bin', 'version.json'), JSON.stringify({ backend: 'original', version: '6.9.45', path: path.join(dir, 'bin', 'cli-proxy-api') }));
    const stopped = await ask();
    expect(stopped.status).toBe(503);
    expect(stopped.body.error.message).toMatch(/^agy accounts are served by CLIProxyAPI, which is not running: start it on the dashboard \(Proxy → CLIProxyAPI\)/);
    await until(async () => (await lastLogEntry())?.status === 503, 'the 503 in the request log');
    expect(await lastLogEntry()).toMatchObject({ upstream: 'agy', via: 'cliproxy', outcome: 'error' });
  });

  it('a client that goes away during the restart wait ends the wait at once', async () => {
    const marker = path.join(dir, 'cliproxy', 'starting.json');
    await fs.writeFile(marker, JSON.stringify({ since: Date.now() })); // "restarting", and nothing listens
    try {
      const abort = new AbortController();
      const pending = post('/v1/messages', { model: 'claude-opus-4-5-thinking', max_tokens: 10, messages: [{ role: 'user', content: 'bye' }] }, { 'anthropic-version': '2023-06-01' }, abort.signal).catch((e: Error) => e);
      await new Promise((r) => setTimeout(r, 400));
      abort.abort();
      expect(await pending).toBeInstanceOf(Error);
      const t0 = Date.now();
      await until(async () => (await lastLogEntry())?.status === 499, 'the aborted request in the log');
      expect(Date.now() - t0).toBeLessThan(3_000); // not the 10 s window
      expect(await lastLogEntry()).toMatchObject({ upstream: 'agy', via: 'cliproxy', outcome: 'aborted' });
    } finally {
      await fs.rm(marker, { force: true });
    }
  });
});
