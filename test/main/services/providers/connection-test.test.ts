import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findFreePort } from '../../../../main/infra/port-probe.js';
import { adviceFor, describeFailure } from '../../../../main/services/providers/connection-advice.js';
import { testConnection } from '../../../../main/services/providers/connection-test.js';
import { startFakeUpstream, type FakeUpstream } from '../../../fixtures/fake-llm-upstream.js';

let fake: FakeUpstream;
beforeAll(async () => {
  fake = await startFakeUpstream();
});
afterAll(() => fake.close());

const openai = () => ({ format: 'openai' as const, baseUrl: `${fake.origin}/v1`, apiKey: 'sk-test-1234', model: 'gpt-x', keyUrl: 'https://keys.example.test' });
const anthropic = () => ({ format: 'anthropic' as const, baseUrl: fake.origin, apiKey: 'sk-ant-test', model: 'claude-x', modelsEndpoint: false });

describe('testConnection', () => {
  it('success: lists the models of an OpenAI-format endpoint with the key as Bearer', async () => {
    fake.seen.length = 0;
    fake.behave = () => ({ kind: 'json', body: { object: 'list', data: [{ id: 'gpt-b' }, { id: 'gpt-a' }] } });
    const r = await testConnection(openai());
    expect(r).toMatchObject({ ok: true, status: 200, models: ['gpt-a', 'gpt-b'], message: 'Connected: 2 models listed.' });
    expect(r.latencyMs).toBeGreaterThanOrEqual(0);
    expect(fake.seen[0]).toMatchObject({ method: 'GET', url: '/v1/models', key: 'sk-test-1234' });
  });

  it('success: sends a one-token Anthropic message when the endpoint has no models list', async () => {
    fake.seen.length = 0;
    fake.behave = () => ({ kind: 'json', body: { type: 'message', content: [{ type: 'text', text: 'p' }] } });
    const r = await testConnection(anthropic());
    expect(r).toMatchObject({ ok: true, status: 200, message: 'Connected: claude-x answered.' });
    expect(fake.seen[0]).toMatchObject({ method: 'POST', url: '/v1/messages', body: { model: 'claude-x', max_tokens: 1 } });
    expect(fake.seen[0]!.headers['anthropic-version']).toBe('2023-06-01');
  });

  it('sends the key as x-api-key when the provider wants it', async () => {
    fake.seen.length = 0;
    fake.behave = () => ({ kind: 'json', body: { data: [] } });
    await testConnection({ ...anthropic(), modelsEndpoint: true, auth: 'x-api-key' });
    expect(fake.seen[0]!.headers['x-api-key']).toBe('sk-ant-test');
    expect(fake.seen[0]!.headers.authorization).toBeUndefined();
  });

  it('401: says the key was refused, quotes the provider and points at where keys come from', async () => {
    fake.behave = () => ({ kind: 'json', status: 401, body: { error: { message: 'Incorrect API key provided' } } });
    const r = await testConnection(openai());
    expect(r).toMatchObject({ ok: false, status: 401 });
    expect(r.message).toMatch(/key was refused \(401\)/);
    expect(r.message).toContain('Incorrect API key provided');
    expect(r.message).toContain('https://keys.example.test');
  });

  it('404 on the list falls back to a message; a 404 there says the base URL is probably wrong', async () => {
    fake.seen.length = 0;
    fake.behave = () => ({ kind: 'text', status: 404, body: 'not found' });
    const r = await testConnection(openai());
    expect(fake.seen.map((s) => s.url)).toEqual(['/v1/models', '/v1/chat/completions']);
    expect(r).toMatchObject({ ok: false, status: 404 });
    expect(r.message).toMatch(/base URL is probably wrong/);
  });

  it('timeout: says no answer came within the limit and what to check', async () => {
    fake.behave = () => ({ kind: 'hang' });
    const r = await testConnection(openai(), { timeoutMs: 300 });
    expect(r).toMatchObject({ ok: false, status: null });
    expect(r.message).toMatch(/No answer within 300 ms/);
    expect(r.message).toMatch(/network/);
  });

  it('connection refused: says nothing listens there and to start a local server', async () => {
    const port = await findFreePort();
    const r = await testConnection({ ...openai(), baseUrl: `http://127.0.0.1:${port}/v1` });
    expect(r).toMatchObject({ ok: false, status: null });
    expect(r.message).toMatch(/Connection refused at 127\.0\.0\.1:\d+/);
    expect(r.message).toMatch(/start it first/);
  });

  it('a connection closed before any answer says so', async () => {
    const server = net.createServer((s) => s.destroy());
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    try {
      const port = (server.address() as net.AddressInfo).port;
      const r = await testConnection({ ...openai(), baseUrl: `http://127.0.0.1:${port}/v1` });
      expect(r.ok).toBe(false);
      expect(r.message).toMatch(/closed the connection|request failed/);
    } finally {
      await new Promise((r) => server.close(r));
    }
  });

  it('honours network.origin_overrides', async () => {
    fake.seen.length = 0;
    fake.behave = () => ({ kind: 'json', body: { data: [{ id: 'm' }] } });
    const r = await testConnection({ ...openai(), baseUrl: 'https://api.groq.com/openai/v1' }, { overrides: { 'https://api.groq.com': fake.origin } });
    expect(r.ok).toBe(true);
    expect(fake.seen[0]!.url).toBe('/openai/v1/models');
  });
});

describe('failure advice (errors a loopback fake cannot produce)', () => {
  const target = { baseUrl: 'https://api.example.test/v1', keyUrl: null };
  it('DNS failure names the host and says to check the spelling and the network', () => {
    const failure = describeFailure(Object.assign(new TypeError('fetch failed'), { cause: { code: 'ENOTFOUND', hostname: 'api.exmple.test' } }), 1000);
    expect(failure).toEqual({ kind: 'dns', host: 'api.exmple.test', code: 'ENOTFOUND' });
    expect(adviceFor(failure, target)).toMatch(/api\.exmple\.test could not be found.*spelling/);
  });

  it('TLS failure names the code and NODE_EXTRA_CA_CERTS', () => {
    const failure = describeFailure(Object.assign(new TypeError('fetch failed'), { cause: { code: 'UNABLE_TO_VERIFY_LEAF_SIGNATURE', message: 'unable to verify the first certificate' } }), 1000);
    expect(failure.kind).toBe('tls');
    expect(adviceFor(failure, target)).toMatch(/TLS error \(UNABLE_TO_VERIFY_LEAF_SIGNATURE\).*NODE_EXTRA_CA_CERTS/);
  });

  it('a port fetch refuses (the Fetch standard\'s bad ports) says to use the real port', async () => {
    const r = await testConnection({ format: 'openai', baseUrl: 'http://127.0.0.1:9/v1' });
    expect(r).toMatchObject({ ok: false, status: null });
    expect(r.message).toMatch(/refuse to use.*real port/);
  });

  it('a timeout signal is a timeout', () => {
    expect(describeFailure(new DOMException('The operation was aborted due to timeout', 'TimeoutError'), 15_000)).toEqual({ kind: 'timeout', timeoutMs: 15_000 });
  });
});
