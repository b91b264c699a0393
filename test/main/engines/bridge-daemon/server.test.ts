import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createParser, type EventSourceMessage } from 'eventsource-parser';
import { builtinModels } from '../../../../main/engines/bridge-daemon/catalog.js';
import { MAX_BODY_BYTES } from '../../../../main/engines/bridge-daemon/request-body.js';
import { createBridgeServer, type BridgeServerOptions } from '../../../../main/engines/bridge-daemon/server.js';
import { ManualClock } from '../../../../main/infra/clock.js';
import { createLogger } from '../../../../main/infra/logger.js';
import { rawExchange, requestHead } from '../../../helpers/raw-http.js';
import { startFakeUpstream, UPSTREAM_MODELS, type FakeUpstream } from '../../../fixtures/bridge/fake-upstream.js';

const TOKEN = 'sb-bridge-' + 'c'.repeat(48);
const CREDS = { accessToken: 'editor-access-token-' + 'a'.repeat(40), machineId: '0123456789abcdef0123456789abcdef' };

let upstream: FakeUpstream;
let daemon: http.Server;
let base: string;
let clock: ManualClock;
let logLines: string[];
let options: BridgeServerOptions;

async function startDaemon(overrides: Partial<BridgeServerOptions> = {}): Promise<void> {
  clock = new ManualClock(Date.UTC(2026, 0, 1));
  logLines = [];
  options = {
    upstream: { baseUrl: upstream.url, ghostMode: true },
    models: { model: 'claude-4.5-sonnet', opus: '', sonnet: '', haiku: '' },
    clientToken: TOKEN,
    readCredentials: async () => CREDS,
    clock,
    logger: createLogger('debug', (l) => logLines.push(l)),
    ...overrides,
  };
  daemon = createBridgeServer(options);
  await new Promise<void>((resolve) => daemon.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(daemon.address() as AddressInfo).port}`;
}

async function stopDaemon(): Promise<void> {
  daemon.closeAllConnections();
  await new Promise((resolve) => daemon.close(resolve));
}

beforeAll(async () => {
  upstream = await startFakeUpstream();
});
afterAll(() => upstream.close());
beforeEach(async () => {
  upstream.requests.length = 0;
  upstream.behaviour.chat = 'ok';
  upstream.behaviour.models = 'ok';
  await startDaemon();
});
afterEach(() => stopDaemon());

function post(path: string, body: unknown, headers: Record<string, string> = { authorization: `Bearer ${TOKEN}` }) {
  return fetch(base + path, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });
}

async function sseEvents(res: Response): Promise<EventSourceMessage[]> {
  const events: EventSourceMessage[] = [];
  const parser = createParser({ onEvent: (e) => events.push(e) });
  parser.feed(await res.text());
  return events;
}

const chats = () => upstream.requests.filter((r) => r.path === '/v1/chat/completions');
const anthropicBody = (extra: object = {}) => ({ model: 'claude-4.5-sonnet', max_tokens: 100, messages: [{ role: 'user', content: 'Hi' }], ...extra });
const openAiBody = (extra: object = {}) => ({ model: 'gpt-5', messages: [{ role: 'user', content: 'Hi' }], ...extra });

describe('bridge daemon: health and client auth', () => {
  it('answers /health without a token', async () => {
    const res = await fetch(base + '/health');
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ ok: true, service: 'switchboard-bridge' });
  });

  it('401 in OpenAI format on /v1/chat/completions and /v1/models, missing or wrong token', async () => {
    for (const headers of [{}, { authorization: 'Bearer wrong' }, { 'x-api-key': 'wrong' }] as Array<Record<string, string>>) {
      const chat = await post('/v1/chat/completions', openAiBody(), headers);
      expect(chat.status).toBe(401);
      const body = (await chat.json()) as { error: { type: string; message: string } };
      expect(body.error.type).toBe('authentication_error');
      const models = await fetch(base + '/v1/models', { headers });
      expect(models.status).toBe(401);
      expect(((await models.json()) as { error: { type: string } }).error.type).toBe('authentication_error');
    }
    expect(upstream.requests).toEqual([]);
  });

  it('401 in Anthropic format on /v1/messages', async () => {
    for (const headers of [{}, { authorization: 'Bearer wrong' }, { 'x-api-key': TOKEN + 'x' }] as Array<Record<string, string>>) {
      const res = await post('/v1/messages', anthropicBody(), headers);
      expect(res.status).toBe(401);
      const body = (await res.json()) as { type: string; error: { type: string } };
      expect(body.type).toBe('error');
      expect(body.error.type).toBe('authentication_error');
    }
    expect(upstream.requests).toEqual([]);
  });

  it('accepts the token as x-api-key too', async () => {
    const res = await post('/v1/messages', anthropicBody(), { 'x-api-key': TOKEN });
    expect(res.status).toBe(200);
  });
});

describe('bridge daemon: /v1/chat/completions', () => {
  it('forwards a non-streaming request with the credentials and ghost mode', async () => {
    const res = await post('/v1/chat/completions', openAiBody());
    expect(res.status).toBe(200);
    const body = (await res.json()) as { choices: Array<{ message: { content: string } }> };
    expect(body.choices[0]!.message.content).toBe('Hello from upstream');
    const [sent] = chats();
    expect(sent!.headers.authorization).toBe(`Bearer ${CREDS.accessToken}`);
    expect(sent!.headers['x-machine-id']).toBe(CREDS.machineId);
    expect(sent!.headers['x-ghost-mode']).toBe('true');
    expect(sent!.body).toEqual(openAiBody());
  });

  it('streams the upstream chunks through', async () => {
    const res = await post('/v1/chat/completions', openAiBody({ stream: true }));
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('text/event-stream');
    const events = await sseEvents(res);
    expect(events.at(-1)!.data).toBe('[DONE]');
    const text = events.slice(0, -1).map((e) => JSON.parse(e.data).choices[0]?.delta?.content ?? '').join('');
    expect(text).toBe('Hello');
  });

  it('sends no ghost-mode header when ghost mode is off', async () => {
    await stopDaemon();
    await startDaemon({ upstream: { baseUrl: upstream.url, ghostMode: false } });
    expect((await post('/v1/chat/completions', openAiBody())).status).toBe(200);
    expect(chats()[0]!.headers['x-ghost-mode']).toBeUndefined();
  });

  it('relays an upstream error before the first byte in OpenAI format with its status', async () => {
    upstream.behaviour.chat = 'fail-429';
    const res = await post('/v1/chat/completions', openAiBody({ stream: true }));
    expect(res.status).toBe(429);
    expect(((await res.json()) as { error: { message: string } }).error.message).toBe('slow down');
  });

  it('503 when no credentials are stored', async () => {
    await stopDaemon();
    await startDaemon({ readCredentials: async () => null });
    const res = await post('/v1/chat/completions', openAiBody());
    expect(res.status).toBe(503);
    expect(chats()).toEqual([]);
  });
});

describe('bridge daemon: /v1/messages through the shared translator', () => {
  it('translates a non-streaming request and answer', async () => {
    const res = await post('/v1/messages', anthropicBody({ system: 'Be brief' }));
    expect(res.status).toBe(200);
    const body = (await res.json()) as { type: string; role: string; model: string; content: unknown; stop_reason: string; usage: object };
    expect(body).toMatchObject({ type: 'message', role: 'assistant', model: 'claude-4.5-sonnet', stop_reason: 'end_turn' });
    expect(body.content).toEqual([{ type: 'text', text: 'Hello from upstream' }]);
    expect(body.usage).toMatchObject({ input_tokens: 11, output_tokens: 4 });
    const sent = chats()[0]!.body;
    expect(sent.model).toBe('claude-4.5-sonnet');
    expect(sent.messages).toEqual([
      { role: 'system', content: 'Be brief' },
      { role: 'user', content: 'Hi' },
    ]);
    expect(chats()[0]!.headers['x-machine-id']).toBe(CREDS.machineId);
  });

  it('translates a stream into the Anthropic event sequence', async () => {
    const res = await post('/v1/messages', anthropicBody({ stream: true }));
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('text/event-stream');
    const events = await sseEvents(res);
    expect(events.map((e) => e.event)).toEqual([
      'message_start',
      'content_block_start',
      'content_block_delta',
      'content_block_delta',
      'content_block_stop',
      'message_delta',
      'message_stop',
    ]);
    const text = events.filter((e) => e.event === 'content_block_delta').map((e) => JSON.parse(e.data).delta.text).join('');
    expect(text).toBe('Hello');
    expect(JSON.parse(events[5]!.data)).toMatchObject({ delta: { stop_reason: 'end_turn' }, usage: { output_tokens: 2 } });
    expect(chats()[0]!.body.stream).toBe(true);
  });

  it('relays an upstream error in Anthropic format', async () => {
    upstream.behaviour.chat = 'fail-text';
    const res = await post('/v1/messages', anthropicBody());
    expect(res.status).toBe(503);
    expect(await res.json()).toEqual({ type: 'error', error: { type: 'api_error', message: 'upstream maintenance' } });
  });
});

describe('bridge daemon: models', () => {
  it('falls back to the catalog default for an unknown model and logs a debug line', async () => {
    const res = await post('/v1/chat/completions', openAiBody({ model: 'no-such-model' }));
    expect(res.status).toBe(200);
    expect(chats()[0]!.body.model).toBe('claude-4.5-sonnet');
    expect(logLines.some((l) => / debug .*no-such-model.*claude-4\.5-sonnet/.test(l))).toBe(true);
  });

  it('maps Claude tier names through the opus/sonnet/haiku overrides', async () => {
    await stopDaemon();
    await startDaemon({ models: { model: 'claude-4.5-sonnet', opus: 'claude-4.5-opus-custom', sonnet: '', haiku: 'gpt-5' } });
    await post('/v1/messages', anthropicBody({ model: 'claude-opus-4-1-20250805' }));
    await post('/v1/messages', anthropicBody({ model: 'claude-3-5-haiku-20241022' }));
    await post('/v1/messages', anthropicBody({ model: 'claude-sonnet-4-5-20250929' }));
    expect(chats().map((r) => r.body.model)).toEqual(['claude-4.5-opus-custom', 'gpt-5', 'claude-4.5-sonnet']);
    expect(logLines.filter((l) => l.includes(' debug ')).length).toBe(1); // only the sonnet name fell back
  });

  it('serves the upstream catalog in the OpenAI list shape, fetched once per 5 minutes', async () => {
    const first = (await (await fetch(base + '/v1/models', { headers: { authorization: `Bearer ${TOKEN}` } })).json()) as {
      object: string;
      data: Array<{ id: string; object: string; created: number; owned_by: string }>;
    };
    expect(first.object).toBe('list');
    expect(first.data.map((m) => m.id)).toEqual(UPSTREAM_MODELS);
    expect(first.data[0]).toEqual({ id: 'claude-4.5-sonnet', object: 'model', created: 1_700_000_000, owned_by: 'cursor' });
    expect(upstream.requests.find((r) => r.path === '/v1/models')!.headers.authorization).toBe(`Bearer ${CREDS.accessToken}`);
    await post('/v1/chat/completions', openAiBody());
    clock.advance(5 * 60 * 1000 - 1);
    await fetch(base + '/v1/models', { headers: { authorization: `Bearer ${TOKEN}` } });
    await post('/v1/messages', anthropicBody());
    expect(upstream.catalogRequests()).toBe(1);
    clock.advance(1);
    await fetch(base + '/v1/models', { headers: { authorization: `Bearer ${TOKEN}` } });
    expect(upstream.catalogRequests()).toBe(2);
  });

  it('answers the built-in list when the upstream catalog fails', async () => {
    upstream.behaviour.models = 'fail';
    const res = await fetch(base + '/v1/models', { headers: { authorization: `Bearer ${TOKEN}` } });
    expect(res.status).toBe(200);
    const body = (await res.json()) as { data: Array<{ id: string }> };
    expect(body.data.map((m) => m.id)).toEqual(builtinModels().map((m) => m.id));
  });
});

/** All of `body`, in one write or (paced) in 512 KiB pieces 10 ms apart, as a slower sender would. */
async function writePaced(req: http.ClientRequest, body: Buffer, paced: boolean): Promise<void> {
  if (!paced) {
    req.end(body);
    return;
  }
  const piece = 512 * 1024;
  for (let at = 0; at < body.length; at += piece) {
    if (req.destroyed) return;
    req.write(body.subarray(at, at + piece));
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  req.end();
}

/** A raw request: fetch() cannot send a body larger than it declares or stop half-way. */
function rawPost(path: string, headers: Record<string, string | number>, write: (req: http.ClientRequest) => unknown) {
  return new Promise<{ status: number; body: string }>((resolve, reject) => {
    const req = http.request(base + path, { method: 'POST', headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json', ...headers }, agent: false });
    req.on('response', (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (c) => (body += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
      res.on('error', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', reject);
    write(req);
  });
}

describe('bridge daemon: limits and disconnects', () => {
  it('413 for a declared body over 10 MiB, answered before the body is sent', async () => {
    for (const [path, check] of [
      ['/v1/chat/completions', (b: any) => expect(b.error.code).toBeDefined()],
      ['/v1/messages', (b: any) => expect(b).toMatchObject({ type: 'error', error: { type: 'request_too_large' } })],
    ] as const) {
      // Only 1 KiB of the declared 10 MiB + 1 is ever written: the answer cannot wait for the rest.
      const res = await rawPost(path, { 'content-length': MAX_BODY_BYTES + 1 }, (req) => req.write('{'.padEnd(1024, ' ')));
      expect(res.status).toBe(413);
      check(JSON.parse(res.body));
    }
    expect(upstream.requests).toEqual([]);
  });

  it('413 for a chunked body that grows past 10 MiB; exactly 10 MiB is accepted', async () => {
    const big = await rawPost('/v1/chat/completions', { 'transfer-encoding': 'chunked' }, (req) => {
      const mib = Buffer.alloc(1024 * 1024, 0x20);
      for (let i = 0; i < 11; i++) req.write(mib);
      req.end();
    });
    expect(big.status).toBe(413);
    const json = JSON.stringify(openAiBody());
    const exact = json.slice(0, -1) + ' '.repeat(MAX_BODY_BYTES - json.length) + '}';
    expect(Buffer.byteLength(exact)).toBe(MAX_BODY_BYTES);
    const ok = await rawPost('/v1/chat/completions', {}, (req) => req.end(exact));
    expect(ok.status).toBe(200);
  });

  it('a client that writes its whole body (just over 10 MiB) before reading gets the 413, never EPIPE', async () => {
    // What the SDKs do: declare the length, write everything, then read. Before the body was
    // drained first, 2 of 3 such requests failed with EPIPE / ECONNRESET instead of the status.
    const body = Buffer.alloc(MAX_BODY_BYTES + 256 * 1024, 0x20);
    for (const paced of [false, true]) {
      const res = await rawPost('/v1/messages', { 'content-length': body.length }, (req) => writePaced(req, body, paced));
      expect(res.status).toBe(413);
      expect(JSON.parse(res.body)).toMatchObject({ type: 'error', error: { type: 'request_too_large' } });
    }
    // fetch (undici, under the official TypeScript SDKs) reads it too.
    const viaFetch = await fetch(base + '/v1/chat/completions', { method: 'POST', headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' }, body });
    expect(viaFetch.status).toBe(413);
    expect(upstream.requests).toEqual([]);
  });

  it("answers what Node's parser refuses (431, 400) as JSON in the route's format", async () => {
    const port = Number(new URL(base).port);
    const headers = Array.from({ length: 3000 }, (_, i) => `X-Filler-${i}: v`);
    const big = await rawExchange(port, requestHead(port, 'POST /v1/messages HTTP/1.1', headers));
    expect(big.status).toBe(431);
    expect(JSON.parse(big.body)).toMatchObject({ type: 'error', error: { message: expect.stringContaining('headers') } });
    const lying = await rawExchange(port, requestHead(port, 'POST /v1/chat/completions HTTP/1.1', ['Content-Length: 1x']));
    expect(lying.status).toBe(400);
    expect(JSON.parse(lying.body)).toMatchObject({ error: { message: 'Invalid Content-Length header' } });
  });

  it('aborts the upstream request at once when a streaming client disconnects', async () => {
    upstream.behaviour.chat = 'hang';
    const aborted = upstream.aborted;
    const req = http.request(base + '/v1/messages', { method: 'POST', headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' }, agent: false });
    const firstByte = new Promise<void>((resolve) => req.on('response', (res) => res.once('data', () => resolve())));
    req.on('error', () => undefined);
    req.end(JSON.stringify(anthropicBody({ stream: true })));
    await firstByte;
    const leftAt = performance.now();
    req.destroy();
    const seenAt = await aborted;
    expect(seenAt - leftAt).toBeLessThan(500);
  });
});

describe('POST /v1/messages/count_tokens (Claude Code asks before compacting)', () => {
  it('answers an estimate without calling the upstream', async () => {
    const res = await post('/v1/messages/count_tokens', { model: 'claude-4.5-sonnet', system: 'x'.repeat(400), messages: [{ role: 'user', content: 'y'.repeat(800) }] });
    expect(res.status).toBe(200);
    // (400 + 800) chars / 4 + 4 per message.
    expect(await res.json()).toEqual({ input_tokens: 304 });
    expect(upstream.requests).toHaveLength(0);
  });

  it('refuses a missing token, bad JSON and a body without messages in the Anthropic error shape', async () => {
    const noKey = await post('/v1/messages/count_tokens', anthropicBody(), {});
    expect(noKey.status).toBe(401);
    expect(await noKey.json()).toMatchObject({ type: 'error', error: { type: 'authentication_error' } });
    const bad = await fetch(`${base}/v1/messages/count_tokens`, { method: 'POST', headers: { authorization: `Bearer ${TOKEN}` }, body: '{nope' });
    expect(bad.status).toBe(400);
    expect(await bad.json()).toEqual({ type: 'error', error: { type: 'invalid_request_error', message: 'Request body is not valid JSON' } });
    const noMessages = await post('/v1/messages/count_tokens', { model: 'm' });
    expect(noMessages.status).toBe(400);
    expect(await noMessages.json()).toEqual({ type: 'error', error: { type: 'invalid_request_error', message: 'messages: an array is required' } });
  });

  it('answers unknown Messages paths and Anthropic clients with the Anthropic error shape', async () => {
    const messagesPath = await post('/v1/messages/batches', {});
    expect(messagesPath.status).toBe(404);
    expect(await messagesPath.json()).toMatchObject({ type: 'error', error: { type: 'not_found_error' } });
    const sdk = await fetch(`${base}/v1/models/claude-4.5-sonnet`, { headers: { authorization: `Bearer ${TOKEN}`, 'anthropic-version': '2023-06-01' } });
    expect(sdk.status).toBe(404);
    expect(await sdk.json()).toMatchObject({ type: 'error', error: { type: 'not_found_error' } });
  });
});
