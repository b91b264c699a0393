import type http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseProxyConfig } from '../../../../main/engines/proxy-engine/config.js';
import type { EngineContext } from '../../../../main/engines/proxy-engine/context.js';
import { createEngineServer } from '../../../../main/engines/proxy-engine/server.js';
import { SessionTracker } from '../../../../main/engines/proxy-engine/sessions.js';
import { RequestLog } from '../../../../main/engines/proxy-engine/traffic/request-log.js';
import { trafficState } from '../../../../main/engines/proxy-engine/traffic/state.js';
import { silentLogger } from '../../../../main/infra/logger.js';
import { startFakeUpstream, type FakeUpstream } from '../../../fixtures/fake-llm-upstream.js';
import { makeTempDir } from '../../../helpers/temp-dir.js';

/** What real clients met (issue 19 point 3): models.retrieve(), stalls, and error shapes per client. */
const KEY = 'sk-sb-gaps-key-0123456789abcdef';
let server: http.Server;
let base: string;
let oa: FakeUpstream;
let ctx: EngineContext;
let cleanup: () => Promise<void>;

beforeAll(async () => {
  oa = await startFakeUpstream();
  let dir: string;
  ({ dir, cleanup } = await makeTempDir('sb-gaps-'));
  ctx = {
    config: parseProxyConfig(`
auth: { api_key: ${KEY} }
upstreams:
  - { name: oa, format: openai, base_url: "${oa.origin}/v1", api_key: k, models: [gpt-4o, "openrouter/auto"] }
  - { name: an, format: anthropic, base_url: "http://127.0.0.1:9", api_key: a, models: [claude-sonnet-4-5] }
model_aliases: { sonnet: claude-sonnet-4-5 }
routing: { first_byte_timeout_seconds: 0.4 }
`),
    configPath: `${dir}/config.yaml`,
    logsDir: `${dir}/logs`,
    authDir: `${dir}/auth`,
    sessions: new SessionTracker(),
    logger: silentLogger,
    version: '9.9.9',
    startedAt: Date.UTC(2026, 0, 2, 3, 4, 5, 678),
    now: () => Date.now(),
  };
  ctx.requestLog = new RequestLog(ctx.logsDir, silentLogger, ctx.startedAt, { capacity: 100, maxFileBytes: 1 << 20 });
  server = createEngineServer(ctx);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise<void>((r) => server.close(() => r()));
  await Promise.all([ctx.requestLog!.drained(), trafficState(ctx).errorLogs.idle()]);
  await oa.close();
  await cleanup();
});

const anthropicSdk = { 'x-api-key': KEY, 'anthropic-version': '2023-06-01' };
const openaiSdk = { authorization: `Bearer ${KEY}` };
const get = (p: string, headers: Record<string, string>) => fetch(base + p, { headers });

describe('GET /v1/models/{id} (models.retrieve() of both SDKs)', () => {
  it('answers the OpenAI model object', async () => {
    const res = await get('/v1/models/gpt-4o', openaiSdk);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ id: 'gpt-4o', object: 'model', created: 1767323045, owned_by: 'oa' });
  });

  it('answers the Anthropic model object to a client sending anthropic-version, aliases included', async () => {
    const res = await get('/v1/models/sonnet', anthropicSdk);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ type: 'model', id: 'sonnet', display_name: 'sonnet', created_at: '2026-01-02T03:04:05.000Z' });
  });

  it('keeps a slash inside a model id', async () => {
    expect(await (await get('/v1/models/openrouter/auto', openaiSdk)).json()).toMatchObject({ id: 'openrouter/auto', owned_by: 'oa' });
  });

  it('answers 404 in each format for an unknown model', async () => {
    const o = await get('/v1/models/gpt-9', openaiSdk);
    expect(o.status).toBe(404);
    expect(await o.json()).toEqual({ error: { message: 'Unknown model "gpt-9": no upstream in proxy/config.yaml lists it and no signed-in account serves it', type: 'invalid_request_error', code: 'model_not_found' } });
    const a = await get('/v1/models/claude-9', anthropicSdk);
    expect(a.status).toBe(404);
    expect(await a.json()).toEqual({ type: 'error', error: { type: 'not_found_error', message: 'Unknown model "claude-9": no upstream in proxy/config.yaml lists it and no signed-in account serves it' } });
  });

  it('pins to one upstream under /api/provider/<name>/', async () => {
    expect((await get('/api/provider/oa/v1/models/gpt-4o', openaiSdk)).status).toBe(200);
    expect((await get('/api/provider/an/v1/models/gpt-4o', openaiSdk)).status).toBe(404);
    const unknown = await get('/api/provider/zz/v1/models/gpt-4o', anthropicSdk);
    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toMatchObject({ type: 'error', error: { type: 'not_found_error' } });
  });

  it('refuses a bad key in the Anthropic shape to an Anthropic SDK', async () => {
    const res = await get('/v1/models/gpt-4o', { 'x-api-key': 'nope', 'anthropic-version': '2023-06-01' });
    expect(res.status).toBe(401);
    expect(await res.json()).toEqual({ type: 'error', error: { type: 'authentication_error', message: 'Invalid API key' } });
  });
});

describe('a stalled upstream gives the same error type on every path', () => {
  const ask = (stream: boolean) =>
    fetch(`${base}/v1/messages`, {
      method: 'POST',
      headers: { ...anthropicSdk, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'gpt-4o', max_tokens: 10, stream, messages: [{ role: 'user', content: 'x' }] }),
    });
  const chunk = 'data: {"id":"c","object":"chat.completion.chunk","created":1,"model":"gpt-4o","choices":[{"index":0,"delta":{"content":"Hi"},"finish_reason":null}]}\n\n';

  it.each([
    ['before the response headers', { kind: 'hang' as const }, false, 'Upstream sent no response within 400 ms'],
    ['before the first stream chunk', { kind: 'sse' as const, chunks: [': keep-alive\n\n'], holdOpen: true }, true, 'Upstream sent nothing for 400 ms'],
    ['in the middle of a whole body', { kind: 'sse' as const, chunks: ['{"id":'], holdOpen: true }, false, 'Upstream sent nothing for 400 ms'],
  ])('%s: 504 timeout_error', async (_name, behaviour, stream, message) => {
    oa.behave = () => behaviour;
    const res = await ask(stream);
    expect(res.status).toBe(504);
    expect(await res.json()).toEqual({ type: 'error', error: { type: 'timeout_error', message } });
  });

  it('in the middle of a stream: an error frame of the same type, and a stream_error row with status 504', async () => {
    oa.behave = () => ({ kind: 'sse', chunks: [chunk], holdOpen: true });
    const res = await ask(true);
    expect(res.status).toBe(200);
    const text = await res.text();
    expect(text).toMatch(/event: error\ndata: \{"type":"error","error":\{"type":"timeout_error","message":"Upstream sent nothing for 400 ms"\}\}\n\n$/);
    const [row] = ctx.requestLog!.query({ limit: 1 }).requests;
    expect(row).toMatchObject({ outcome: 'stream_error', status: 504, error: 'Upstream sent nothing for 400 ms', upstream: 'oa' });
    expect(row!.errorLog).toMatch(/^error-v1-messages-/);
  });
});

describe('a client that hangs up', () => {
  it('is an aborted row with status 499, not an error, and leaves no error log', async () => {
    oa.behave = () => ({ kind: 'sse', chunks: ['data: {"id":"c","object":"chat.completion.chunk","created":1,"model":"gpt-4o","choices":[{"index":0,"delta":{"content":"Hi"},"finish_reason":null}]}\n\n'], holdOpen: true });
    const controller = new AbortController();
    const res = await fetch(`${base}/v1/chat/completions`, {
      method: 'POST',
      headers: { ...openaiSdk, 'content-type': 'application/json', 'x-session-id': 'hangs-up' },
      body: JSON.stringify({ model: 'gpt-4o', stream: true, messages: [{ role: 'user', content: 'x' }] }),
      signal: controller.signal,
    });
    const reader = res.body!.getReader();
    await reader.read();
    controller.abort();
    await oa.waitForEarlyClose();
    const until = Date.now() + 3_000;
    let row;
    while (!(row = ctx.requestLog!.query({ limit: 5 }).requests.find((e) => e.session === 'session:hangs-up')) && Date.now() < until) await new Promise((r) => setTimeout(r, 20));
    expect(row).toMatchObject({ outcome: 'aborted', status: 499, errorLog: null, error: 'The client closed the connection', upstream: 'oa' });
    expect(row!.ttfbMs).toEqual(expect.any(Number));
    expect(ctx.requestLog!.query({ limit: 5, status: { kind: 'error' } }).requests.map((e) => e.id)).not.toContain(row!.id);
  });
});
