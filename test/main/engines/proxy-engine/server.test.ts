import type http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { silentLogger } from '../../../../main/infra/logger.js';
import { parseProxyConfig } from '../../../../main/engines/proxy-engine/config.js';
import type { EngineContext } from '../../../../main/engines/proxy-engine/context.js';
import { createEngineServer } from '../../../../main/engines/proxy-engine/server.js';
import { SessionTracker } from '../../../../main/engines/proxy-engine/sessions.js';
import { rawExchange, requestHead } from '../../../helpers/raw-http.js';

const KEY = 'sk-sb-testkeytestkeytestkeytestkey12';
const SECRET = 'management-secret-0123456789abcdef';

let server: http.Server;
let base: string;
let ctx: EngineContext;

beforeAll(async () => {
  ctx = {
    config: parseProxyConfig(`
server: { port: 8317 }
auth: { api_key: ${KEY}, management_secret: ${SECRET} }
upstreams:
  - { name: openai, format: openai, base_url: "http://127.0.0.1:9/v1", api_key: k, models: [gpt-4o, gpt-4o-mini] }
  - { name: anthropic, format: anthropic, base_url: "http://127.0.0.1:9", api_key: [a, b], models: [claude-sonnet-4-5] }
`),
    configPath: '/nowhere/config.yaml',
    logsDir: '/nowhere/logs',
    authDir: '/nowhere/auth',
    sessions: new SessionTracker(),
    logger: silentLogger,
    version: '9.9.9',
    startedAt: 1_700_000_000_123,
    now: () => 1_700_000_100_000,
  };
  server = createEngineServer(ctx);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));

describe('engine health and client auth', () => {
  it('answers GET / with 200 and no key', async () => {
    const res = await fetch(`${base}/`);
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ message: 'Switchboard proxy engine', version: '9.9.9' });
  });

  it('refuses /v1/models without a key, in the OpenAI error format', async () => {
    const res = await fetch(`${base}/v1/models`);
    expect(res.status).toBe(401);
    expect(await res.json()).toEqual({ error: { message: 'Missing API key', type: 'authentication_error', code: 'invalid_api_key' } });
  });

  it('refuses a wrong key on /v1/messages in the Anthropic error format', async () => {
    const res = await fetch(`${base}/v1/messages?beta=true`, { method: 'POST', headers: { 'x-api-key': 'wrong' }, body: '{}' });
    expect(res.status).toBe(401);
    expect(await res.json()).toEqual({ type: 'error', error: { type: 'authentication_error', message: 'Invalid API key' } });
  });

  it('guards the /api/provider aliases too', async () => {
    const res = await fetch(`${base}/api/provider/openai/v1/chat/completions`, { method: 'POST', body: '{}' });
    expect(res.status).toBe(401);
  });

  it('accepts the key as Bearer and as x-api-key', async () => {
    expect((await fetch(`${base}/v1/models`, { headers: { authorization: `Bearer ${KEY}` } })).status).toBe(200);
    expect((await fetch(`${base}/v1/models`, { headers: { 'x-api-key': KEY } })).status).toBe(200);
  });

  it('answers an unknown client route with 404 in the client format', async () => {
    const res = await fetch(`${base}/v1/nothing-here`, { method: 'POST', headers: { 'x-api-key': KEY }, body: '{}' });
    expect(res.status).toBe(404);
    expect(((await res.json()) as { error: { type: string } }).error.type).toBe('invalid_request_error');
  });

  it('answers paths outside the client and management routes with a plain 404', async () => {
    const res = await fetch(`${base}/elsewhere`);
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({ error: 'Not found' });
  });
});

describe('engine /v1/models', () => {
  it('lists every upstream model with owned_by = the upstream name and created in seconds', async () => {
    const res = await fetch(`${base}/v1/models`, { headers: { 'x-api-key': KEY } });
    expect(await res.json()).toEqual({
      object: 'list',
      data: [
        { id: 'gpt-4o', object: 'model', created: 1_700_000_000, owned_by: 'openai' },
        { id: 'gpt-4o-mini', object: 'model', created: 1_700_000_000, owned_by: 'openai' },
        { id: 'claude-sonnet-4-5', object: 'model', created: 1_700_000_000, owned_by: 'anthropic' },
      ],
    });
  });
});

describe('engine management route', () => {
  const url = () => `${base}/v0/management/sessions`;

  it('reports sessionCount, pid and start time with the management secret', async () => {
    ctx.sessions.record('user:a', 1_700_000_050_000);
    ctx.sessions.record('user:b', 1_700_000_060_000);
    ctx.sessions.record('user:a', 1_700_000_070_000);
    const res = await fetch(url(), { headers: { authorization: `Bearer ${SECRET}` } });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ sessionCount: 2, pid: process.pid, startedAt: 1_700_000_000_123, version: '9.9.9' });
    expect((await fetch(url(), { headers: { 'x-management-key': SECRET } })).status).toBe(200);
  });

  it('refuses a missing or wrong secret, and the API key', async () => {
    expect(await (await fetch(url())).json()).toEqual({ error: 'missing management key' });
    const wrong = await fetch(url(), { headers: { authorization: `Bearer ${KEY}` } });
    expect(wrong.status).toBe(401);
    expect(await wrong.json()).toEqual({ error: 'invalid management key' });
  });

  it('is switched off (404) when no management secret is configured', async () => {
    const saved = ctx.config.auth.management_secret;
    ctx.config.auth.management_secret = undefined;
    try {
      expect((await fetch(url(), { headers: { authorization: `Bearer ${SECRET}` } })).status).toBe(404);
    } finally {
      ctx.config.auth.management_secret = saved;
    }
  });
});

describe('SessionTracker', () => {
  it('counts distinct sessions seen in the last 10 minutes', () => {
    const t = new SessionTracker();
    t.record('a', 0);
    t.record('b', 5 * 60_000);
    t.record('a', 9 * 60_000);
    expect(t.count(9 * 60_000)).toBe(2);
    expect(t.count(15 * 60_000 - 1)).toBe(2);
    expect(t.count(15 * 60_000)).toBe(1);
    expect(t.count(19 * 60_000)).toBe(0);
  });
});

describe("requests Node's parser refuses", () => {
  const port = () => Number(new URL(base).port);
  it('431 for too many headers, in the Anthropic format on /v1/messages', async () => {
    const headers = Array.from({ length: 3000 }, (_, i) => `X-Filler-${i}: v`);
    const res = await rawExchange(port(), requestHead(port(), 'POST /v1/messages HTTP/1.1', headers));
    expect(res.status).toBe(431);
    expect(JSON.parse(res.body)).toMatchObject({ type: 'error', error: { type: 'invalid_request_error' } });
  });

  it('400 for a lying Content-Length, in the OpenAI format elsewhere', async () => {
    const res = await rawExchange(port(), requestHead(port(), 'POST /v1/chat/completions HTTP/1.1', ['Content-Length: 12abc']));
    expect(res.status).toBe(400);
    expect(JSON.parse(res.body)).toEqual({ error: { message: 'Invalid Content-Length header', type: 'invalid_request_error', code: null } });
  });
});
