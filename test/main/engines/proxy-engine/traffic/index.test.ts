import fs from 'node:fs/promises';
import http from 'node:http';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  anthropicRequestToOpenAI,
  anthropicResponseToOpenAI,
  openAIRequestToAnthropic,
  type AnthropicRequest,
  type AnthropicResponse,
  type OpenAIRequest,
} from '../../../../../main/engines/translate/index.js';
import { startFakeUpstream, sseEvents, type FakeUpstream } from '../../../../fixtures/fake-llm-upstream.js';
import { startEngineProcess, type EngineProcess } from '../../../../fixtures/proxy-engine-process.js';
import { goldenRoot } from '../../../../fixtures/translate/golden.js';
import { findFreePort } from '../../../../../main/infra/port-probe.js';
import { startTestApp, type TestApp } from '../../../../helpers/app.js';
import { makeTempDir } from '../../../../helpers/temp-dir.js';

const KEY = 'sk-sb-proxy-client-key-0123456789';
const SECRET = 'engine-management-secret-0123456789';
const fixture = (rel: string) => fs.readFile(path.join(goldenRoot, rel), 'utf8');

let dir: string;
let cleanup: () => Promise<void>;
let oa: FakeUpstream; // OpenAI format: the main one
let rot: FakeUpstream; // OpenAI format: three keys, for rotation and failover
let an: FakeUpstream; // Anthropic format
let engine: EngineProcess;
let deadPort: number; // nothing listens there
let app: TestApp; // the management API, whose {config_dir}/proxy is the engine's WRITABLE_PATH

beforeAll(async () => {
  ({ dir, cleanup } = await makeTempDir('sb-traffic-'));
  [oa, rot, an] = await Promise.all([startFakeUpstream(), startFakeUpstream(), startFakeUpstream()]);
  deadPort = await findFreePort();
  app = await startTestApp();
  engine = await startEngineProcess(
    dir,
    `
server: { port: {{PORT}}, host: 127.0.0.1 }
auth: { api_key: ${KEY}, management_secret: ${SECRET} }
upstreams:
  - { name: oa, format: openai, base_url: "${oa.origin}/v1", api_key: sk-oa-upstream-key-aaaa1111, models: [gpt-4o, slow-model] }
  - { name: rot, format: openai, base_url: "${rot.origin}/v1/", api_key: [sk-rot-key-one-11111111, sk-rot-key-two-22222222, sk-rot-key-three-3333333], models: [rot-model] }
  - { name: an, format: anthropic, base_url: "${an.origin}", api_key: [sk-ant-upstream-key-bbbb2222], models: [claude-sonnet-4-5] }
  - { name: dead, format: openai, base_url: "http://127.0.0.1:${deadPort}/v1", models: [dead-model] }
model_aliases:
  claude-sonnet-4-5-20250929: gpt-4o
  sonnet: claude-sonnet-4-5
routing: { cooldown_seconds: 30, connect_timeout_seconds: 2, first_byte_timeout_seconds: 1.5, error_logs_max_files: 10 }
`,
    path.join(app.home, 'proxy'),
  );
});

afterAll(async () => {
  await engine?.stop();
  await Promise.all([oa?.close(), rot?.close(), an?.close(), app?.stop()]);
  await cleanup?.();
});

beforeEach(() => {
  for (const f of [oa, rot, an]) f.seen.length = 0;
});

function post(pathname: string, body: unknown, headers: Record<string, string> = {}): Promise<Response> {
  return fetch(engine.base + pathname, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${KEY}`, ...headers },
    body: JSON.stringify(body),
  });
}

const claudeCodeHeaders = {
  authorization: '',
  'x-api-key': KEY,
  'anthropic-version': '2023-06-01',
  'anthropic-beta': 'claude-code-20250219,interleaved-thinking-2025-05-14',
  'user-agent': 'claude-cli/2.0.14 (external, cli)',
};

interface LogFile {
  name: string;
  text: string;
}

async function readLogs(): Promise<LogFile[]> {
  const logsDir = path.join(engine.writable, 'logs');
  const names = (await fs.readdir(logsDir).catch(() => [] as string[])).filter((n) => n.startsWith('error-') && n.endsWith('.log'));
  const files = await Promise.all(names.sort().map(async (name) => ({ name, text: await fs.readFile(path.join(logsDir, name), 'utf8').catch(() => '') })));
  return files.filter((f) => f.text !== '');
}

/** Waits until the error logs satisfy `ready` (the engine writes them just after answering). */
async function logsWhen(ready: (logs: LogFile[]) => boolean): Promise<LogFile[]> {
  for (const until = Date.now() + 30_000; Date.now() < until; ) {
    const logs = await readLogs();
    if (ready(logs)) return logs;
    await new Promise((r) => setTimeout(r, 20));
  }
  throw new Error(`error logs never reached the expected state: ${(await readLogs()).map((l) => l.name).join(', ')}`);
}

/** The first log that appeared after `before` (a snapshot) and contains `marker`. */
async function newLog(before: LogFile[], marker: string): Promise<LogFile> {
  const old = new Set(before.map((l) => l.name));
  const pick = (logs: LogFile[]) => logs.find((l) => !old.has(l.name) && l.text.includes(marker));
  return pick(await logsWhen((logs) => pick(logs) !== undefined))!;
}

describe('Claude Code (Anthropic client) through an OpenAI upstream', () => {
  it('streams: translated request upstream, the exact Anthropic event sequence back', async () => {
    const request = JSON.parse(await fixture('request-anthropic-to-openai/claude-code-tools-thinking.input.json')) as AnthropicRequest;
    const upstreamSse = await fixture('stream-openai-to-anthropic/thinking-text-tools.input.sse');
    oa.behave = () => ({ kind: 'sse', chunks: sseEvents(upstreamSse), delayMs: 2 });

    const res = await post('/v1/messages?beta=true', request, claudeCodeHeaders);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/event-stream/);
    const text = await res.text();

    expect(oa.seen).toHaveLength(1);
    expect(oa.seen[0]!.url).toBe('/v1/chat/completions');
    expect(oa.seen[0]!.key).toBe('sk-oa-upstream-key-aaaa1111');
    expect(oa.seen[0]!.body).toEqual(anthropicRequestToOpenAI(request, { model: 'gpt-4o' }));
    expect([...text.matchAll(/^event: (\S+)$/gm)].map((m) => m[1])).toEqual([
      'message_start',
      ...['content_block_start', 'content_block_delta', 'content_block_delta', 'content_block_delta', 'content_block_stop'],
      ...['content_block_start', 'content_block_delta', 'content_block_delta', 'content_block_stop'],
      ...['content_block_start', 'content_block_delta', 'content_block_delta', 'content_block_stop'],
      ...['content_block_start', 'content_block_delta', 'content_block_delta', 'content_block_stop'],
      'message_delta',
      'message_stop',
    ]);
    // Byte for byte the golden translation, answered under the model name the client asked for.
    const golden = await fixture('stream-openai-to-anthropic/thinking-text-tools.expected.sse');
    expect(text).toBe(golden.replace('"model":"deepseek-reasoner"', '"model":"claude-sonnet-4-5-20250929"'));
  });

  it('non-streaming: the OpenAI answer comes back as an Anthropic message', async () => {
    const completion = JSON.parse(await fixture('response-openai-to-anthropic/tool-calls-reasoning-cached.input.json')) as unknown;
    oa.behave = () => ({ kind: 'json', body: completion });
    const res = await post('/v1/messages', { model: 'claude-sonnet-4-5-20250929', max_tokens: 100, messages: [{ role: 'user', content: 'hi' }] }, claudeCodeHeaders);
    expect(res.status).toBe(200);
    const golden = JSON.parse(await fixture('response-openai-to-anthropic/tool-calls-reasoning-cached.expected.json')) as AnthropicResponse;
    expect(await res.json()).toEqual({ ...golden, model: 'claude-sonnet-4-5-20250929' });
  });
});

describe('Claude Code–sized requests (long strings spliced as bytes, not re-encoded)', () => {
  const long = (tag: string) => `${tag}: ${'const s = "quoted" \\ path\n\ttab café ’ 😀 '.repeat(40)}`;
  const body = {
    model: 'claude-sonnet-4-5-20250929',
    max_tokens: 100,
    system: [{ type: 'text', text: long('system one') }, { type: 'text', text: long('system two'), cache_control: { type: 'ephemeral' } }],
    messages: [
      { role: 'user', content: [{ type: 'text', text: long('ask') }] },
      { role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_1', name: 'Write', input: { path: 'a.ts', content: long('file') } }] },
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: long('result') }, { type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'iVBORw0KGgo'.repeat(50) } }] },
    ],
    tools: [{ name: 'Write', description: long('tool'), input_schema: { type: 'object', properties: { content: { type: 'string' } } } }],
    metadata: { user_id: 'user_splice' },
  };

  it('reach an OpenAI upstream as the full translation would', async () => {
    oa.behave = () => ({ kind: 'json', body: { id: 'c', object: 'chat.completion', created: 1, model: 'gpt-4o', choices: [{ index: 0, message: { role: 'assistant', content: 'ok' }, finish_reason: 'stop' }] } });
    const res = await post('/v1/messages', body, claudeCodeHeaders);
    expect(res.status).toBe(200);
    expect(oa.seen[0]!.body).toEqual(JSON.parse(JSON.stringify(anthropicRequestToOpenAI(body as unknown as AnthropicRequest, { model: 'gpt-4o' }))));
  });

  it('reach an Anthropic upstream under the aliased model, otherwise as sent', async () => {
    an.behave = () => ({ kind: 'json', body: { id: 'msg_1', type: 'message', role: 'assistant', model: 'claude-sonnet-4-5', content: [], stop_reason: 'end_turn', stop_sequence: null, usage: { input_tokens: 1, output_tokens: 1 } } });
    const res = await post('/v1/messages', { ...body, model: 'sonnet' }, claudeCodeHeaders);
    expect(res.status).toBe(200);
    expect(an.seen[0]!.body).toEqual({ ...body, model: 'claude-sonnet-4-5' });
  });
});

describe('OpenAI client through an Anthropic upstream', () => {
  const request: OpenAIRequest = {
    model: 'claude-sonnet-4-5',
    messages: [
      { role: 'system', content: 'Be brief.' },
      { role: 'user', content: 'Weather in SF?' },
    ],
    tools: [{ type: 'function', function: { name: 'get_weather', parameters: { type: 'object', properties: { location: { type: 'string' } } } } }],
    max_tokens: 1000,
  };

  it('non-streaming', async () => {
    const message = JSON.parse(await fixture('response-anthropic-to-openai/thinking-text-tool.input.json')) as AnthropicResponse;
    an.behave = () => ({ kind: 'json', body: message });
    const res = await post('/v1/chat/completions', request);
    expect(res.status).toBe(200);
    expect(an.seen[0]!.url).toBe('/v1/messages');
    expect(an.seen[0]!.key).toBe('sk-ant-upstream-key-bbbb2222');
    expect(an.seen[0]!.headers['anthropic-version']).toBe('2023-06-01');
    expect(an.seen[0]!.headers.authorization).toBeUndefined();
    expect(an.seen[0]!.body).toEqual(openAIRequestToAnthropic(request));
    const body = (await res.json()) as { created: number };
    expect(body).toEqual({ ...anthropicResponseToOpenAI(message, { created: body.created, model: 'claude-sonnet-4-5' }) });
  });

  it('streaming with include_usage: OpenAI chunks, a usage chunk, then [DONE]', async () => {
    const upstreamSse = await fixture('stream-anthropic-to-openai/thinking-text-tool.input.sse');
    an.behave = () => ({ kind: 'sse', chunks: sseEvents(upstreamSse), delayMs: 1 });
    const res = await post('/v1/chat/completions', { ...request, stream: true, stream_options: { include_usage: true } });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/event-stream/);
    const frames = (await res.text()).trim().split('\n\n').map((f) => f.replace(/^data: /, ''));
    expect(frames.at(-1)).toBe('[DONE]');
    const chunks = frames.slice(0, -1).map((f) => JSON.parse(f) as { created: number; choices: unknown[]; usage?: unknown });
    const golden = (await fixture('stream-anthropic-to-openai/thinking-text-tool.expected.sse'))
      .trim()
      .split('\n\n')
      .slice(0, -1)
      .map((f) => JSON.parse(f.slice(6)) as Record<string, unknown>);
    expect(chunks).toEqual(golden.map((g) => ({ ...g, created: chunks[0]!.created, model: 'claude-sonnet-4-5' })));
    expect(chunks.at(-1)!.usage).toEqual({ prompt_tokens: 2520, completion_tokens: 89, total_tokens: 2609, prompt_tokens_details: { cached_tokens: 2048 } });
  });
});

describe('same format: passthrough', () => {
  it('relays an Anthropic stream byte for byte, with the upstream key, the beta flags and the aliased model', async () => {
    const upstreamSse = await fixture('stream-anthropic-to-openai/text-only.input.sse');
    an.behave = () => ({ kind: 'sse', chunks: sseEvents(upstreamSse) });
    const res = await post('/v1/messages?beta=true', { model: 'sonnet', max_tokens: 50, stream: true, messages: [{ role: 'user', content: 'hi' }] }, claudeCodeHeaders);
    expect(res.status).toBe(200);
    expect(await res.text()).toBe(upstreamSse);
    const seen = an.seen[0]!;
    expect(seen.url).toBe('/v1/messages?beta=true');
    expect(seen.key).toBe('sk-ant-upstream-key-bbbb2222');
    expect(seen.headers['anthropic-beta']).toBe(claudeCodeHeaders['anthropic-beta']);
    expect((seen.body as { model: string }).model).toBe('claude-sonnet-4-5');
  });

  it("forwards Claude Code's signed thinking blocks as the client's own bytes (only the blocks are checked, nothing re-encoded)", async () => {
    an.behave = () => ({ kind: 'json', body: { id: 'msg_1', type: 'message', role: 'assistant', model: 'claude-sonnet-4-5', content: [], stop_reason: 'end_turn', stop_sequence: null, usage: { input_tokens: 1, output_tokens: 1 } } });
    // Spacing and escapes JSON.stringify would not write: any re-encoding shows.
    const raw =
      '{ "model" : "claude-sonnet-4-5", "max_tokens": 5, "messages": [ {"role":"user","content":"caf\u00e9"},\n' +
      ' {"role":"assistant","content":[{"type":"thinking","thinking":"I was thinking","signature":"EqQBCkYIBxgCKkD"},{"type":"text","text":"b"}]},\n' +
      ' {"role":"user","content":"thinking"} ] }';
    const res = await fetch(engine.base + '/v1/messages', { method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${KEY}` }, body: raw });
    expect(res.status).toBe(200);
    expect(an.seen[0]!.text).toBe(raw);
  });

  it('drops unsigned thinking (from an earlier OpenAI turn) before an Anthropic upstream sees it', async () => {
    an.behave = () => ({ kind: 'json', body: { id: 'msg_1', type: 'message', role: 'assistant', model: 'claude-sonnet-4-5', content: [], stop_reason: 'end_turn', stop_sequence: null, usage: { input_tokens: 1, output_tokens: 1 } } });
    const messages = [
      { role: 'user', content: 'a' },
      { role: 'assistant', content: [{ type: 'thinking', thinking: 'unsigned', signature: '' }, { type: 'text', text: 'b' }] },
      { role: 'user', content: 'c' },
    ];
    const res = await post('/v1/messages', { model: 'claude-sonnet-4-5', max_tokens: 5, messages });
    expect(res.status).toBe(200);
    expect((an.seen[0]!.body as { messages: Array<{ content: unknown }> }).messages[1]!.content).toEqual([{ type: 'text', text: 'b' }]);
  });
});

describe('keys: round-robin, failover, cooldown', () => {
  const chat = { model: 'rot-model', messages: [{ role: 'user', content: 'hi' }] };
  const ok = { id: 'chatcmpl-ok', object: 'chat.completion', created: 1, model: 'rot-model', choices: [{ index: 0, message: { role: 'assistant', content: 'ok' }, finish_reason: 'stop' }] };

  it('rotates keys round-robin across requests, fails over on 429 and 500 before any byte, then skips cooling keys', async () => {
    const before = await readLogs();
    // Round-robin while all is well.
    rot.behave = () => ({ kind: 'json', body: ok });
    for (let i = 0; i < 3; i++) expect((await post('/v1/chat/completions', chat)).status).toBe(200);
    const firstThree = rot.seen.map((s) => s.key);
    expect(new Set(firstThree).size).toBe(3);

    // Key one answers 429, key two 500, key three succeeds: the client sees only the success.
    rot.seen.length = 0;
    rot.behave = (r) =>
      r.key === 'sk-rot-key-one-11111111'
        ? { kind: 'json', status: 429, body: { error: { message: 'Rate limit reached', type: 'requests', code: 'rate_limit_exceeded' } }, headers: { 'retry-after': '1' } }
        : r.key === 'sk-rot-key-two-22222222'
          ? { kind: 'text', status: 500, body: 'upstream exploded' }
          : { kind: 'json', body: ok };
    let sawFailover = false;
    for (let i = 0; i < 3; i++) {
      const res = await post('/v1/chat/completions', chat);
      expect(res.status).toBe(200);
      expect(await res.json()).toEqual(ok);
    }
    // The first request that met key one or two cooled it; afterwards only key three is asked.
    const keys = rot.seen.map((s) => s.key);
    sawFailover = keys.includes('sk-rot-key-one-11111111') && keys.includes('sk-rot-key-two-22222222');
    expect(sawFailover).toBe(true);
    expect(keys.filter((k) => k === 'sk-rot-key-one-11111111')).toHaveLength(1);
    expect(keys.filter((k) => k === 'sk-rot-key-two-22222222')).toHaveLength(1);
    expect(keys.filter((k) => k === 'sk-rot-key-three-3333333')).toHaveLength(3);

    // Failed attempts leave an error log even though the client got 200.
    const text = (await newLog(before, '"model":"rot-model"')).text;
    expect(text).toContain('Upstream Status: 429');
    expect(text).toContain('Upstream Status: 500');
    expect(text).toMatch(/=== Response ===\nStatus: 200\n/);
    expect(text).not.toContain('sk-rot-key-one-11111111');
    expect(text).not.toContain(KEY);
  });

  it('with every key failing, the client gets the last upstream error with its status', async () => {
    oa.behave = () => ({ kind: 'json', status: 503, body: { error: { message: 'The server is overloaded', type: 'server_error', code: null } } });
    const res = await post('/v1/chat/completions', { model: 'gpt-4o', messages: [{ role: 'user', content: 'x' }] });
    expect(res.status).toBe(503);
    expect(await res.json()).toEqual({ error: { message: 'The server is overloaded', type: 'server_error', code: null } });
  });
});

describe('errors before the first byte become JSON errors', () => {
  it('a streaming request whose upstream fails with 503 gets a JSON Anthropic error with status 503', async () => {
    oa.behave = () => ({ kind: 'json', status: 503, body: { error: { message: 'Service temporarily unavailable', type: 'server_error', code: 'overloaded' } } });
    const res = await post('/v1/messages', { model: 'gpt-4o', max_tokens: 10, stream: true, messages: [{ role: 'user', content: 'x' }] }, claudeCodeHeaders);
    expect(res.status).toBe(503);
    expect(res.headers.get('content-type')).toBe('application/json');
    expect(await res.json()).toEqual({ type: 'error', error: { type: 'api_error', message: 'Service temporarily unavailable' } });
  });

  it('a 4xx is not retried and keeps its status, translated into the client format', async () => {
    oa.behave = () => ({ kind: 'json', status: 400, body: { error: { message: "Invalid value for 'max_tokens'", type: 'invalid_request_error', code: null } } });
    const res = await post('/v1/messages', { model: 'gpt-4o', max_tokens: -1, messages: [{ role: 'user', content: 'x' }] });
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({ type: 'error', error: { type: 'invalid_request_error', message: "Invalid value for 'max_tokens'" } });
    expect(oa.seen).toHaveLength(1);
  });

  it('a 200 stream that ends without data is a 502 JSON error', async () => {
    an.behave = () => ({ kind: 'empty-200-stream' });
    const res = await post('/v1/messages', { model: 'claude-sonnet-4-5', max_tokens: 10, stream: true, messages: [{ role: 'user', content: 'x' }] });
    expect(res.status).toBe(502);
    expect(await res.json()).toEqual({ type: 'error', error: { type: 'api_error', message: 'Upstream ended the stream before sending any data' } });
  });

  it('an upstream that never answers times out with 504 (first-byte limit)', async () => {
    oa.behave = () => ({ kind: 'hang' });
    const started = Date.now();
    const res = await post('/v1/chat/completions', { model: 'slow-model', messages: [{ role: 'user', content: 'x' }] });
    expect(res.status).toBe(504);
    expect(((await res.json()) as { error: { message: string } }).error.message).toBe('Upstream sent no response within 1500 ms');
    expect(Date.now() - started).toBeLessThan(5_000);
  });

  it('an unreachable upstream is a 502 naming it', async () => {
    const res = await post('/v1/chat/completions', { model: 'dead-model', messages: [{ role: 'user', content: 'x' }] });
    expect(res.status).toBe(502);
    const { error } = (await res.json()) as { error: { message: string; type: string } };
    expect(error.type).toBe('server_error');
    expect(error.message).toMatch(new RegExp(`^Upstream 127\\.0\\.0\\.1:${deadPort} unreachable: .*ECONNREFUSED`));
  });

  it('an unknown provider alias is a 404 naming it', async () => {
    const res = await post('/api/provider/nope/v1/chat/completions', { model: 'x', messages: [] });
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({ error: { message: 'Unknown provider "nope": no upstream of that name in proxy/config.yaml and no signed-in account of it', type: 'invalid_request_error', code: 'model_not_found' } });
  });
});

describe('upstream failure after the first byte', () => {
  it('ends the Anthropic stream with an error event and logs the broken attempt', async () => {
    const before = await readLogs();
    oa.behave = () => ({
      kind: 'sse',
      chunks: ['data: {"id":"chatcmpl-cut","object":"chat.completion.chunk","created":1,"model":"gpt-4o","choices":[{"index":0,"delta":{"content":"Par"},"finish_reason":null}]}\n\n'],
      delayMs: 20,
      thenDestroy: true,
    });
    const res = await post('/v1/messages', { model: 'gpt-4o', max_tokens: 10, stream: true, messages: [{ role: 'user', content: 'mid-stream-marker' }] }, claudeCodeHeaders);
    expect(res.status).toBe(200);
    const text = await res.text();
    expect([...text.matchAll(/^event: (\S+)$/gm)].map((m) => m[1])).toEqual(['message_start', 'content_block_start', 'content_block_delta', 'error']);
    expect(text).toMatch(/event: error\ndata: \{"type":"error","error":\{"type":"api_error","message":"Upstream (stream failed|closed the connection)[^"]*"\}\}\n\n$/);
    const log = await newLog(before, 'mid-stream-marker');
    expect(log.text).toMatch(/=== Upstream Response 1 ===\nUpstream Status: 200\nError: Upstream /);
    // The 200 went out first, but the listing must show the failure: the error frame's status and the outcome.
    expect(log.text).toMatch(/=== Response ===\nStatus: 502\nOutcome: stream_error \(status line 200 sent before the stream failed: Upstream /);
  });
});

/** Sends `body` to the engine on its own connection, for tests that cut that connection. */
function rawPost(pathname: string, body: unknown): http.ClientRequest {
  const req = http.request(`${engine.base}${pathname}`, { method: 'POST', agent: false, headers: { 'content-type': 'application/json', authorization: `Bearer ${KEY}` } });
  req.once('error', () => undefined); // the test destroys it
  req.end(JSON.stringify(body));
  return req;
}

// The engine's own first-byte timeout (1.5 s above) would close a hung upstream request too: a
// close well before it (1 s, ten times the usual figure, so a busy machine cannot fail it) is the
// client's disconnect passed on. The 100 ms figures belong to `npm run bench:proxy`.
describe('client disconnect', () => {
  it('before the upstream answered (non-streaming): the upstream request is closed before any timeout could', async () => {
    oa.behave = () => ({ kind: 'hang' });
    const req = rawPost('/v1/chat/completions', { model: 'gpt-4o', messages: [{ role: 'user', content: 'hang-then-leave' }] });
    while (oa.seen.length === 0) await new Promise((r) => setTimeout(r, 5));
    const cutAt = performance.now();
    req.destroy();
    const seen = await oa.waitForEarlyClose(10_000);
    expect(seen.closedEarlyAt! - cutAt).toBeLessThan(1_000);
  });

  it('mid-stream on a passthrough (OpenAI client, OpenAI upstream): the upstream request is closed before any timeout could', async () => {
    oa.behave = () => ({ kind: 'sse', chunks: ['data: {"id":"c1","object":"chat.completion.chunk","created":1,"model":"gpt-4o","choices":[{"index":0,"delta":{"content":"Hel"},"finish_reason":null}]}\n\n'], holdOpen: true });
    const req = rawPost('/v1/chat/completions', { model: 'gpt-4o', stream: true, messages: [{ role: 'user', content: 'x' }] });
    const res = await new Promise<http.IncomingMessage>((resolve) => req.once('response', resolve));
    expect(res.statusCode).toBe(200);
    await new Promise<void>((resolve) => res.once('data', () => resolve()));
    const cutAt = performance.now();
    res.destroy();
    const seen = await oa.waitForEarlyClose(10_000);
    expect(seen.closedEarlyAt! - cutAt).toBeLessThan(1_000);
  });

  it('aborts the upstream request before any timeout could', async () => {
    oa.behave = () => ({
      kind: 'sse',
      chunks: ['data: {"id":"c1","object":"chat.completion.chunk","created":1,"model":"gpt-4o","choices":[{"index":0,"delta":{"content":"Hel"},"finish_reason":null}]}\n\n'],
      holdOpen: true,
    });
    const body = JSON.stringify({ model: 'gpt-4o', max_tokens: 10, stream: true, messages: [{ role: 'user', content: 'x' }] });
    const clientRes = await new Promise<http.IncomingMessage>((resolve, reject) => {
      const req = http.request(`${engine.base}/v1/messages`, { method: 'POST', agent: false, headers: { 'content-type': 'application/json', 'x-api-key': KEY } }, resolve);
      req.once('error', reject);
      req.end(body);
    });
    expect(clientRes.statusCode).toBe(200);
    await new Promise<void>((resolve) => clientRes.once('data', () => resolve()));
    const cutAt = performance.now();
    clientRes.destroy();
    const seen = await oa.waitForEarlyClose(10_000);
    expect(seen.closedEarlyAt! - cutAt).toBeLessThan(1_000);
  });
});

describe('routing errors in the client format', () => {
  it('unknown model → 404 naming it, Anthropic format on /v1/messages', async () => {
    const res = await post('/v1/messages', { model: 'claude-9-ultra', max_tokens: 1, messages: [] }, claudeCodeHeaders);
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({ type: 'error', error: { type: 'not_found_error', message: 'Unknown model "claude-9-ultra": no upstream in proxy/config.yaml lists it and no signed-in account serves it' } });
  });

  it('unknown model → 404 naming it, OpenAI format on /v1/chat/completions', async () => {
    const res = await post('/v1/chat/completions', { model: 'gpt-9', messages: [] });
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({ error: { message: 'Unknown model "gpt-9": no upstream in proxy/config.yaml lists it and no signed-in account serves it', type: 'invalid_request_error', code: 'model_not_found' } });
  });

  it.each([
    ['/v1/messages', 'anthropic', { type: 'error', error: { type: 'authentication_error', message: 'Missing API key' } }],
    ['/v1/chat/completions', 'openai', { error: { message: 'Missing API key', type: 'authentication_error', code: 'invalid_api_key' } }],
  ])('%s without a key → 401 in the %s format', async (route, _format, expected) => {
    const res = await fetch(engine.base + route, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"model":"gpt-4o"}' });
    expect(res.status).toBe(401);
    expect(await res.json()).toEqual(expected);
  });

  it.each([
    ['not JSON', '{"model":', 'Invalid JSON in request body: expected a JSON object'],
    ['no model', '{"messages":[]}', 'model: a model name is required'],
    ['no messages', '{"model":"gpt-4o"}', 'messages: an array of messages is required'],
    ['a message the translator cannot read', '{"model":"gpt-4o","max_tokens":1,"messages":[null]}', /^Invalid request body: /],
  ])('%s → 400 in the client format', async (_name, raw, message) => {
    const res = await fetch(`${engine.base}/v1/messages`, { method: 'POST', headers: { 'x-api-key': KEY, 'content-type': 'application/json' }, body: raw });
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({ type: 'error', error: { type: 'invalid_request_error', message: typeof message === 'string' ? message : expect.stringMatching(message) } });
  });
});

describe('provider aliases, count_tokens, sessions', () => {
  it('/api/provider/<name>/v1/messages pins that upstream even for a model it does not list', async () => {
    an.behave = () => ({ kind: 'json', body: { id: 'msg_p', type: 'message', role: 'assistant', model: 'claude-opus-4-1', content: [{ type: 'text', text: 'pinned' }], stop_reason: 'end_turn', stop_sequence: null, usage: { input_tokens: 1, output_tokens: 1 } } });
    const res = await post('/api/provider/an/v1/messages', { model: 'claude-opus-4-1', max_tokens: 5, messages: [{ role: 'user', content: 'x' }] });
    expect(res.status).toBe(200);
    expect(((await res.json()) as { content: unknown }).content).toEqual([{ type: 'text', text: 'pinned' }]);
    expect(an.seen).toHaveLength(1);
  });

  it('/api/provider/<name>/v1/models lists only that upstream', async () => {
    const res = await fetch(`${engine.base}/api/provider/rot/v1/models`, { headers: { authorization: `Bearer ${KEY}` } });
    expect(res.status).toBe(200);
    const body = (await res.json()) as { data: Array<{ id: string; owned_by: string }> };
    expect(body.data.map((m) => [m.id, m.owned_by])).toEqual([['rot-model', 'rot']]);
  });

  it('count_tokens estimates for an OpenAI upstream and asks an Anthropic upstream', async () => {
    const estimate = await post('/v1/messages/count_tokens', { model: 'gpt-4o', messages: [{ role: 'user', content: 'x'.repeat(400) }] });
    expect(estimate.status).toBe(200);
    expect(await estimate.json()).toEqual({ input_tokens: 104 });
    expect(oa.seen).toHaveLength(0);

    an.behave = () => ({ kind: 'json', body: { input_tokens: 4242 } });
    const exact = await post('/v1/messages/count_tokens?beta=true', { model: 'claude-sonnet-4-5', messages: [{ role: 'user', content: 'x' }] });
    expect(await exact.json()).toEqual({ input_tokens: 4242 });
    expect(an.seen[0]!.url).toBe('/v1/messages/count_tokens?beta=true');
  });

  it('count_tokens answers 400 for a body its estimate cannot read, and the request log says 400 (not ok)', async () => {
    const res = await post('/v1/messages/count_tokens', { model: 'gpt-4o', messages: [{ role: 'user', content: null }] });
    expect(res.status).toBe(400);
    expect(((await res.json()) as { error: { message: string } }).error.message).toMatch(/^Invalid request body: /);
    const log = await fetch(`${engine.base}/v0/management/requests?limit=1`, { headers: { authorization: `Bearer ${SECRET}` } });
    const [entry] = ((await log.json()) as { requests: Array<{ path: string; status: number; outcome: string }> }).requests;
    expect(entry).toMatchObject({ path: '/v1/messages/count_tokens', status: 400, outcome: 'error' });
  });

  it('cuts what a client controls before it enters the request log (model, session: 256 characters)', async () => {
    const model = `m-${'x'.repeat(5000)}`;
    const res = await post('/v1/messages', { model, max_tokens: 1, messages: [{ role: 'user', content: 'x' }], metadata: { user_id: 'u'.repeat(5000) } });
    expect(res.status).toBe(404);
    const log = await fetch(`${engine.base}/v0/management/requests?limit=1`, { headers: { authorization: `Bearer ${SECRET}` } });
    const [entry] = ((await log.json()) as { requests: Array<{ modelRequested: string; session: string; error: string }> }).requests;
    expect(entry!.modelRequested).toHaveLength(256);
    expect(entry!.modelRequested.endsWith('…')).toBe(true);
    expect(entry!.session.length).toBeLessThanOrEqual(256);
    expect(entry!.error.length).toBeLessThanOrEqual(2048);
  });

  it('counts sessions by metadata.user_id, else x-session-id', async () => {
    an.behave = () => ({ kind: 'json', body: { id: 'msg_s', type: 'message', role: 'assistant', model: 'm', content: [], stop_reason: 'end_turn', stop_sequence: null, usage: { input_tokens: 1, output_tokens: 1 } } });
    const count = async () => {
      const res = await fetch(`${engine.base}/v0/management/sessions`, { headers: { authorization: `Bearer ${SECRET}` } });
      return ((await res.json()) as { sessionCount: number }).sessionCount;
    };
    const before = await count();
    const base = { model: 'claude-sonnet-4-5', max_tokens: 5, messages: [{ role: 'user', content: 'x' }] };
    await post('/v1/messages', { ...base, metadata: { user_id: 'user_abc_session_1' } });
    await post('/v1/messages', { ...base, metadata: { user_id: 'user_abc_session_1' } });
    await post('/v1/messages', { ...base, metadata: { user_id: 'user_abc_session_2' } });
    await post('/v1/messages', base, { 'x-session-id': 'sess-header-3' });
    expect((await count()) - before).toBe(3);
  });
});

describe('error logs', () => {
  it('writes one per failed request, named and laid out as decisions §4 says, secrets masked', async () => {
    const before = await readLogs();
    const res = await post('/v1/messages?beta=true', { model: 'no-such-model', max_tokens: 1, messages: [] }, claudeCodeHeaders);
    expect(res.status).toBe(404);
    const log = await newLog(before, 'no-such-model');
    expect(log.name).toMatch(/^error-v1-messages-\d{4}-\d{2}-\d{2}T\d{6}-[0-9a-f]{8}\.log$/);
    const lines = log.text.split('\n');
    expect(lines[0]).toBe('=== Request ===');
    expect(lines[1]).toBe('POST /v1/messages?beta=true HTTP/1.1');
    expect(log.text).toContain('x-api-key: sk-s...6789');
    expect(log.text).not.toContain(KEY);
    expect(log.text).toContain('{"model":"no-such-model","max_tokens":1,"messages":[]}');
    expect(log.text).toMatch(/=== Response ===\nStatus: 404\n\n\{"type":"error","error":\{"type":"not_found_error","message":"Unknown model \\"no-such-model\\"/);
  });

  it('logs every upstream attempt of a failed request with the upstream key masked', async () => {
    const before = await readLogs();
    oa.behave = () => ({ kind: 'json', status: 500, body: { error: { message: 'boom', type: 'server_error', code: null } } });
    expect((await post('/v1/chat/completions', { model: 'gpt-4o', messages: [{ role: 'user', content: 'attempt-log-marker' }] })).status).toBe(500);
    const log = await newLog(before, 'attempt-log-marker');
    expect(log.text).toContain('=== Upstream Request 1 ===');
    expect(log.text).toContain(`POST ${oa.origin}/v1/chat/completions`);
    expect(log.text).toContain('authorization: Bearer sk-o...1111');
    expect(log.text).not.toContain('sk-oa-upstream-key-aaaa1111');
    expect(log.text).toContain('=== Upstream Response 1 ===\nUpstream Status: 500');
    expect(log.text).toMatch(/=== Response ===\nStatus: 500\n/);
  });

  it('lists them through GET /api/proxy/error-logs of the management API', async () => {
    const before = await readLogs();
    await post('/v1/chat/completions', { model: 'listed-model-404', messages: [] });
    const log = await newLog(before, 'listed-model-404');
    const list = await app.json<{ files: Array<{ name: string; size: number; statusCode: number; model: string; absolutePath: string }> }>('GET', '/api/proxy/error-logs');
    expect(list.status).toBe(200);
    const entry = list.body.files.find((f) => f.name === log.name);
    expect(entry).toMatchObject({ name: log.name, statusCode: 404, model: 'listed-model-404', size: Buffer.byteLength(log.text), absolutePath: path.join(app.home, 'proxy', 'logs', log.name) });
    const content = await app.request('GET', `/api/proxy/error-logs/${log.name}`);
    expect(content.status).toBe(200);
    expect(await content.text()).toBe(log.text);
  });

  it('keeps only the newest routing.error_logs_max_files (10 here)', async () => {
    for (let i = 0; i < 12; i++) await post('/v1/chat/completions', { model: `missing-${i}`, messages: [] });
    const modelOf = (l: LogFile) => /"model":"(missing-\d+)"/.exec(l.text)?.[1];
    const logs = await logsWhen((all) => all.length === 10 && all.every((l) => modelOf(l) !== undefined) && all.some((l) => modelOf(l) === 'missing-11'));
    expect(logs.map(modelOf).sort()).toEqual(['missing-10', 'missing-11', 'missing-2', 'missing-3', 'missing-4', 'missing-5', 'missing-6', 'missing-7', 'missing-8', 'missing-9']);
  });
});
