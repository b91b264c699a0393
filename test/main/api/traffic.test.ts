import fs from 'node:fs/promises';
import path from 'node:path';
import YAML from 'yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeUpstream, type FakeUpstream } from '../../fixtures/fake-llm-upstream.js';
import { prepareProxyHome } from '../../fixtures/proxy-home.js';
import { startTestApp, type TestApp } from '../../helpers/app.js';
import { openSse, type SseClient } from '../../helpers/sse.js';

/** The request log end to end: the real engine started by the app, a fake upstream, the API and /api/events. */
let app: TestApp;
let oa: FakeUpstream;
let proxyBase: string;
let apiKey: string;
let events: SseClient;

interface Entry {
  id: string;
  time: number;
  format: string;
  method: string;
  path: string;
  modelRequested: string | null;
  modelSent: string | null;
  upstream: string | null;
  keyIndex: number | null;
  status: number;
  outcome: string;
  latencyMs: number;
  ttfbMs: number | null;
  tokens: { input: number; output: number; cacheRead: number; cacheWrite: number } | null;
  costUSD: number | null;
  session: string | null;
  error: string | null;
  errorLog: string | null;
}

const usage = { prompt_tokens: 1200, completion_tokens: 30, total_tokens: 1230, prompt_tokens_details: { cached_tokens: 200 } };
const completion = (model: string) => ({
  id: 'chatcmpl-1',
  object: 'chat.completion',
  created: 1,
  model,
  choices: [{ index: 0, message: { role: 'assistant', content: 'hi' }, finish_reason: 'stop' }],
  usage,
});

beforeAll(async () => {
  oa = await startFakeUpstream();
  let port = 0;
  app = await startTestApp({
    before: async ({ home }) => {
      port = await prepareProxyHome(home, {
        proxyExtra: `  - { name: oa, format: openai, base_url: "${oa.origin}/v1", api_key: [sk-oa-one-1111111111, sk-oa-two-2222222222], models: [gpt-4o-2024-08-06, traffic-model] }\n`,
      });
    },
  });
  expect((await app.json('POST', '/api/proxy/proxy-start')).status).toBe(200);
  proxyBase = `http://127.0.0.1:${port}`;
  const config = YAML.parse(await fs.readFile(path.join(app.home, 'proxy', 'config.yaml'), 'utf8')) as { auth: { api_key: string } };
  apiKey = config.auth.api_key;
  events = await openSse(`${app.url}/api/events`);
  // The feed opens when the supervisor says "running"; wait until it does before counting on events.
  await waitFor(() => app.services.proxy.traffic.following);
});

afterAll(async () => {
  events?.close();
  await app?.json('POST', '/api/proxy/proxy-stop');
  await Promise.all([oa?.close(), app?.stop()]);
});

async function waitFor(check: () => boolean | Promise<boolean>, timeoutMs = 5_000): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > until) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 20));
  }
}

function call(pathname: string, body: unknown, headers: Record<string, string> = {}): Promise<Response> {
  return fetch(proxyBase + pathname, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${apiKey}`, ...headers },
    body: JSON.stringify(body),
  });
}

async function requests(query = ''): Promise<{ requests: Entry[]; total: number }> {
  const res = await app.json<{ requests: Entry[]; total: number }>('GET', `/api/proxy/requests${query}`);
  expect(res.status).toBe(200);
  return res.body;
}

/** The `proxy-request` event whose entry matches, waiting for it. */
async function eventFor(match: (e: Entry) => boolean): Promise<Entry> {
  const find = () => events.events.filter((m) => m.event === 'proxy-request').map((m) => JSON.parse(m.data) as Entry).find(match);
  await events.waitFor(() => find() !== undefined);
  return find()!;
}

describe('the request log while the engine runs', () => {
  it('lists a finished request with models, upstream, key index, usage and cost, and streams it as proxy-request', async () => {
    oa.behave = () => ({ kind: 'json', body: completion('gpt-4o') });
    const res = await call('/v1/chat/completions', { model: 'gpt-4o-2024-08-06', messages: [{ role: 'user', content: 'hello' }] }, { 'x-session-id': 'sess-42' });
    expect(res.status).toBe(200);
    await res.text();
    const live = await eventFor((e) => e.session === 'session:sess-42');
    expect(live).toMatchObject({
      format: 'openai',
      method: 'POST',
      path: '/v1/chat/completions',
      modelRequested: 'gpt-4o-2024-08-06',
      modelSent: 'gpt-4o-2024-08-06',
      upstream: 'oa',
      status: 200,
      outcome: 'ok',
      ttfbMs: null,
      tokens: { input: 1000, output: 30, cacheRead: 200, cacheWrite: 0 },
      error: null,
      errorLog: null,
    });
    expect([0, 1]).toContain(live.keyIndex);
    // Priced as gpt-4o (the date suffix is dropped for the lookup): $2.50 / M input, $10 / M output, $1.25 / M cache read.
    expect(live.costUSD).toBeCloseTo(1000 * 2.5e-6 + 30 * 10e-6 + 200 * 1.25e-6, 12);
    const page = await requests('?limit=5');
    expect(page.requests[0]).toEqual(live);
    expect(JSON.stringify(page)).not.toContain('sk-oa-');
    expect(JSON.stringify(page)).not.toContain(apiKey);
  });

  it('reads usage from a translated stream and records the time to first byte', async () => {
    oa.behave = () => ({
      kind: 'sse',
      chunks: [
        'data: {"id":"c","object":"chat.completion.chunk","created":1,"model":"gpt-4o","choices":[{"index":0,"delta":{"role":"assistant","content":"Hi"},"finish_reason":null}]}\n\n',
        'data: {"id":"c","object":"chat.completion.chunk","created":1,"model":"gpt-4o","choices":[{"index":0,"delta":{},"finish_reason":"stop"}]}\n\ndata: {"id":"c","object":"chat.completion.chunk","created":1,"model":"gpt-4o","choices":[],"usage":{"prompt_tokens":50,',
        '"completion_tokens":7,"total_tokens":57}}\n\ndata: [DONE]\n\n',
      ],
    });
    const res = await call('/v1/messages', { model: 'traffic-model', max_tokens: 20, stream: true, messages: [{ role: 'user', content: 'stream-usage' }] }, { 'x-session-id': 'sess-stream' });
    expect(res.status).toBe(200);
    await res.text();
    const entry = await eventFor((e) => e.session === 'session:sess-stream');
    expect(entry).toMatchObject({ format: 'anthropic', outcome: 'ok', status: 200, tokens: { input: 50, output: 7, cacheRead: 0, cacheWrite: 0 }, costUSD: null });
    expect(entry.ttfbMs).toEqual(expect.any(Number));
    expect(entry.ttfbMs!).toBeLessThanOrEqual(entry.latencyMs);
  });

  it('logs a 401 for a bad API key with an error log', async () => {
    const res = await call('/v1/messages', { model: 'gpt-4o-2024-08-06', messages: [] }, { authorization: '', 'x-api-key': 'sk-wrong-key-000000' });
    expect(res.status).toBe(401);
    expect(await res.json()).toEqual({ type: 'error', error: { type: 'authentication_error', message: 'Invalid API key' } });
    const entry = await eventFor((e) => e.status === 401);
    expect(entry).toMatchObject({ format: 'anthropic', path: '/v1/messages', outcome: 'error', error: 'Invalid API key', modelRequested: null, upstream: null });
    expect(entry.errorLog).toMatch(/^error-v1-messages-.*\.log$/);
    await waitFor(async () => (await app.json<{ files: Array<{ name: string; statusCode: number }> }>('GET', '/api/proxy/error-logs')).body.files.some((f) => f.name === entry.errorLog && f.statusCode === 401));
    const text = await (await app.request('GET', `/api/proxy/error-logs/${entry.errorLog}`)).text();
    expect(text).not.toContain('sk-wrong-key-000000');
  });

  it('logs a 404 for an unknown route with an error log', async () => {
    const res = await call('/v1/nothing-here', {});
    expect(res.status).toBe(404);
    expect(await res.json()).toMatchObject({ error: { message: 'Unknown route: POST /v1/nothing-here', type: 'invalid_request_error' } });
    const entry = await eventFor((e) => e.path === '/v1/nothing-here');
    expect(entry).toMatchObject({ status: 404, outcome: 'error', format: 'openai' });
    expect(entry.errorLog).toMatch(/^error-v1-nothing-here-.*\.log$/);
    await waitFor(async () => (await app.json<{ files: Array<{ name: string; statusCode: number }> }>('GET', '/api/proxy/error-logs')).body.files.some((f) => f.name === entry.errorLog && f.statusCode === 404));
  });

  it('lists a stream that failed after its start as stream_error, in the request log and the error-log listing', async () => {
    oa.behave = () => ({
      kind: 'sse',
      chunks: ['data: {"id":"c","object":"chat.completion.chunk","created":1,"model":"gpt-4o","choices":[{"index":0,"delta":{"content":"Par"},"finish_reason":null}]}\n\n'],
      delayMs: 20,
      thenDestroy: true,
    });
    const res = await call('/v1/chat/completions', { model: 'gpt-4o-2024-08-06', stream: true, messages: [{ role: 'user', content: 'x' }] }, { 'x-session-id': 'sess-broken' });
    expect(res.status).toBe(200);
    await res.text();
    const entry = await eventFor((e) => e.session === 'session:sess-broken');
    expect(entry).toMatchObject({ outcome: 'stream_error', status: 502, upstream: 'oa' });
    expect(entry.error).toMatch(/^Upstream /);
    await waitFor(async () => (await app.json<{ files: Array<{ name: string; statusCode: number }> }>('GET', '/api/proxy/error-logs')).body.files.some((f) => f.name === entry.errorLog && f.statusCode === 502));
    expect((await requests('?status=error')).requests.map((e) => e.id)).toContain(entry.id);
  });

  it('logs an upstream error answer with its status and message', async () => {
    oa.behave = () => ({ kind: 'json', status: 400, body: { error: { message: 'context too long', type: 'invalid_request_error' } } });
    const res = await call('/v1/chat/completions', { model: 'gpt-4o-2024-08-06', messages: [{ role: 'user', content: 'x' }] }, { 'x-session-id': 'sess-400' });
    expect(res.status).toBe(400);
    const entry = await eventFor((e) => e.session === 'session:sess-400');
    expect(entry).toMatchObject({ status: 400, outcome: 'error', error: 'context too long', upstream: 'oa', modelSent: 'gpt-4o-2024-08-06' });
    expect(entry.errorLog).not.toBeNull();
  });

  it('refuses usage numbers an upstream sends that are not token counts, and counts them in the stats (issue 27 point 11)', async () => {
    const before = (await app.json<{ refusedNumbers: number }>('GET', '/api/proxy/requests/stats')).body.refusedNumbers;
    oa.behave = () => ({ kind: 'json', body: { ...completion('gpt-4o'), usage: { prompt_tokens: 1e308, completion_tokens: -5, prompt_tokens_details: { cached_tokens: 2 ** 60 } } } });
    const res = await call('/v1/chat/completions', { model: 'gpt-4o-2024-08-06', messages: [{ role: 'user', content: 'hostile usage' }] }, { 'x-session-id': 'sess-hostile' });
    expect(res.status).toBe(200);
    await res.text();
    const entry = await eventFor((e) => e.session === 'session:sess-hostile');
    expect(entry.tokens).toBeNull();
    expect(entry.costUSD).toBeNull();
    const stats = await app.json<{ refusedNumbers: number; skippedLines: number }>('GET', '/api/proxy/requests/stats');
    expect(stats.body.refusedNumbers - before).toBe(3);
    expect(stats.body.skippedLines).toBe(0);
    oa.behave = () => ({ kind: 'json', body: { ...completion('gpt-4o'), usage: { prompt_tokens: 12.5, completion_tokens: 3 } } });
    const fractional = await call('/v1/chat/completions', { model: 'gpt-4o-2024-08-06', messages: [{ role: 'user', content: 'x' }] }, { 'x-session-id': 'sess-fraction' });
    await fractional.text();
    expect((await eventFor((e) => e.session === 'session:sess-fraction')).tokens).toEqual({ input: 0, output: 3, cacheRead: 0, cacheWrite: 0 });
  });

  it('filters by status, model, upstream and since, newest first, with limit and total', async () => {
    const all = await requests('?limit=1000');
    expect(all.total).toBeGreaterThanOrEqual(6);
    const times = all.requests.map((e) => e.id);
    expect(new Set(times).size).toBe(times.length);
    const only = async (q: string, keep: (e: Entry) => boolean) => {
      const page = await requests(q);
      expect(page.requests.map((e) => e.id)).toEqual(all.requests.filter(keep).map((e) => e.id));
      expect(page.total).toBe(page.requests.length);
    };
    await only('?status=error&limit=1000', (e) => e.outcome === 'error' || e.outcome === 'stream_error');
    await only('?status=ok&limit=1000', (e) => e.outcome === 'ok');
    await only('?status=401&limit=1000', (e) => e.status === 401);
    await only('?status=4xx&limit=1000', (e) => e.status >= 400 && e.status < 500);
    await only('?model=traffic-model&limit=1000', (e) => e.modelRequested === 'traffic-model');
    await only('?upstream=oa&limit=1000', (e) => e.upstream === 'oa');
    await only(`?since=${new Date(Date.now() + 60_000).toISOString()}&limit=1000`, () => false);
    const one = await requests('?limit=1');
    expect(one.requests).toHaveLength(1);
    expect(one.total).toBe(all.total);
    expect(one.requests[0]!.id).toBe(all.requests[0]!.id);
  });

  it.each([
    ['status=maybe', 'status'],
    ['status=600', 'status'],
    ['since=yesterday', 'since'],
    ['since=-5', 'since'],
    ['limit=0', 'limit'],
    ['limit=1001', 'limit'],
    ['limit=ten', 'limit'],
    ['status=ok&status=error', 'status'],
  ])('answers 400 Invalid request log filter for %s, naming %s', async (query, field) => {
    const res = await app.json<{ error: string; message: string }>('GET', `/api/proxy/requests?${query}`);
    expect(res.status).toBe(400);
    expect(res.body.error).toBe('Invalid request log filter');
    expect(res.body.message).toContain(field);
  });

  it('answers stats: 61 minutes oldest first, requests per minute, error rate, last error', async () => {
    const res = await app.json<{ perMinute: Array<{ minute: number; requests: number; errors: number }>; requestsPerMinute: number; errorRate: number; lastError: Entry }>('GET', '/api/proxy/requests/stats');
    expect(res.status).toBe(200);
    const { perMinute, requestsPerMinute, errorRate, lastError } = res.body;
    expect(perMinute).toHaveLength(61);
    expect(perMinute.every((m, i) => i === 0 || m.minute - perMinute[i - 1]!.minute === 60_000)).toBe(true);
    expect(perMinute.at(-1)!.minute).toBe(Math.floor(Date.now() / 60_000) * 60_000);
    const all = await requests('?limit=1000');
    expect(perMinute.reduce((n, m) => n + m.requests, 0)).toBe(all.total);
    const errors = all.requests.filter((e) => e.outcome === 'error' || e.outcome === 'stream_error').length;
    expect(perMinute.reduce((n, m) => n + m.errors, 0)).toBe(errors);
    expect(errorRate).toBeCloseTo(errors / all.total, 10);
    expect(requestsPerMinute).toBeGreaterThan(0);
    expect(lastError.id).toBe(all.requests.find((e) => e.outcome === 'error' || e.outcome === 'stream_error')!.id);
  });
});

describe('the request log when the engine is stopped', () => {
  it('answers the same history from proxy/logs/requests.jsonl', async () => {
    const running = await requests('?limit=1000');
    const stats = await app.json('GET', '/api/proxy/requests/stats');
    expect((await app.json('POST', '/api/proxy/proxy-stop')).body).toMatchObject({ stopped: true });
    const stopped = await requests('?limit=1000');
    expect(stopped).toEqual(running);
    expect((await requests('?status=401')).requests.map((e) => e.status)).toEqual([401]);
    const after = await app.json<{ perMinute: unknown[]; errorRate: number; lastError: Entry }>('GET', '/api/proxy/requests/stats');
    expect(after.body.errorRate).toBe((stats.body as { errorRate: number }).errorRate);
    expect(after.body.lastError).toEqual((stats.body as { lastError: Entry }).lastError);
    const file = await fs.stat(path.join(app.home, 'proxy', 'logs', 'requests.jsonl'));
    expect(file.mode & 0o777).toBe(0o600);
  });
});
