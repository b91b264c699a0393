import http from 'node:http';
import net, { type AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Upstream } from '../../../../../main/engines/proxy-engine/config.js';
import { Hangup } from '../../../../../main/engines/proxy-engine/traffic/hangup.js';
import { callUpstream, ClientGoneError, closeUpstreamPools, UpstreamCall, UpstreamFailure } from '../../../../../main/engines/proxy-engine/traffic/upstream-call.js';
import { upstreamEndpoint } from '../../../../../main/engines/proxy-engine/traffic/upstream-endpoint.js';
import type { UpstreamResponse } from '../../../../../main/engines/proxy-engine/traffic/upstream-response.js';

interface Seen {
  headers: http.IncomingHttpHeaders;
  body: string;
  /** Resolves when the request's connection closed (the engine let go of it). */
  closed: Promise<void>;
}

/** A loopback upstream: `/whole` answers at once, `/silent` never, `/stream` sends one chunk and waits. */
let server: http.Server;
let base: string;
const seen: Seen[] = [];

beforeAll(async () => {
  server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    let closedResolve!: () => void;
    const entry: Seen = { headers: req.headers, body: '', closed: new Promise((r) => (closedResolve = r)) };
    res.on('close', () => closedResolve());
    seen.push(entry);
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      entry.body = Buffer.concat(chunks).toString();
      if (req.url === '/whole') {
        res.writeHead(201, { 'content-type': 'application/json', 'retry-after': '7' });
        res.end('{"ok":true}');
      } else if (req.url === '/stream') {
        res.writeHead(200, { 'content-type': 'text/event-stream' });
        res.write('data: one\n\n');
      }
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await closeUpstreamPools();
  server.closeAllConnections();
  await new Promise((r) => server.close(r));
});

const upstream = (baseUrl: string): Upstream => ({ name: 'u', format: 'anthropic', base_url: baseUrl, models: [] });
const timeouts = { connectMs: 5_000, firstByteMs: 30_000 };

/** The whole body of a response, through its one consumer. */
function bodyOf(response: UpstreamResponse): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    response.consume({ data: (c) => chunks.push(c), end: () => resolve(Buffer.concat(chunks).toString()), error: reject });
  });
}

describe('callUpstream', () => {
  it('POSTs the body with its length and resolves with status, headers and the whole body (even when it all came before the consumer)', async () => {
    const headers: Record<string, string> = { 'content-type': 'application/json', 'x-api-key': 'sk-up' };
    const response = await callUpstream({ endpoint: upstreamEndpoint(upstream(base), '/whole', ''), headers, body: Buffer.from('{"model":"m"}') }, new Hangup(), timeouts);
    expect(response.statusCode).toBe(201);
    expect(response.header('retry-after')).toBe('7');
    expect(await bodyOf(response)).toBe('{"ok":true}');
    const request = seen.at(-1)!;
    expect(request.body).toBe('{"model":"m"}');
    expect(request.headers).toMatchObject({ 'content-length': '13', 'x-api-key': 'sk-up' });
    expect(headers['content-length']).toBe('13'); // the error log shows what was sent
  });

  it('a base URL with user:password@ sends Basic credentials, unless the call has its own Authorization', async () => {
    const withAuth = upstream(base.replace('http://', 'http://gw%40user:p%3Ass@'));
    await bodyOf(await callUpstream({ endpoint: upstreamEndpoint(withAuth, '/whole', ''), headers: {}, body: Buffer.from('{}') }, new Hangup(), timeouts));
    expect(seen.at(-1)!.headers.authorization).toBe(`Basic ${Buffer.from('gw@user:p:ss').toString('base64')}`);
    await bodyOf(await callUpstream({ endpoint: upstreamEndpoint(withAuth, '/whole', ''), headers: { authorization: 'Bearer sk-own' }, body: Buffer.from('{}') }, new Hangup(), timeouts));
    expect(seen.at(-1)!.headers.authorization).toBe('Bearer sk-own');
  });

  it('an upstream nobody listens on is a 502 naming the host and the cause', async () => {
    const dead = http.createServer();
    await new Promise<void>((r) => dead.listen(0, '127.0.0.1', r));
    const port = (dead.address() as AddressInfo).port;
    await new Promise((r) => dead.close(r));
    const failure = await callUpstream({ endpoint: upstreamEndpoint(upstream(`http://127.0.0.1:${port}`), '/whole', ''), headers: {}, body: Buffer.from('{}') }, new Hangup(), timeouts).catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(UpstreamFailure);
    expect((failure as UpstreamFailure).status).toBe(502);
    expect((failure as UpstreamFailure).message).toMatch(new RegExp(`^Upstream 127\\.0\\.0\\.1:${port} unreachable: .*ECONNREFUSED`));
  });

  it.each([
    ['closes the connection without answering', (s: net.Socket) => s.destroy(), /^Upstream 127\.0\.0\.1:\d+ closed the connection without answering$/],
    ['answers with something that is not HTTP', (s: net.Socket) => s.end('garbage\r\n\r\n'), /^Upstream 127\.0\.0\.1:\d+ answered with something that is not HTTP: /],
  ] as const)('an upstream that %s is a 502 saying so', async (_what, answer, message) => {
    const raw = net.createServer((s) => s.once('data', () => answer(s)));
    await new Promise<void>((r) => raw.listen(0, '127.0.0.1', r));
    try {
      const port = (raw.address() as AddressInfo).port;
      const failure = await callUpstream({ endpoint: upstreamEndpoint(upstream(`http://127.0.0.1:${port}`), '/whole', ''), headers: {}, body: Buffer.from('{}') }, new Hangup(), timeouts).catch((e: unknown) => e);
      expect(failure).toBeInstanceOf(UpstreamFailure);
      expect((failure as UpstreamFailure).status).toBe(502);
      expect((failure as UpstreamFailure).message).toMatch(message);
    } finally {
      await new Promise((r) => raw.close(r));
    }
  });

  it('no response within the first-byte limit: a 504 saying so, and the upstream request is closed', async () => {
    const before = seen.length;
    const failure = await callUpstream({ endpoint: upstreamEndpoint(upstream(base), '/silent', ''), headers: {}, body: Buffer.from('{}') }, new Hangup(), { connectMs: 5_000, firstByteMs: 150 }).catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(UpstreamFailure);
    expect(failure).toMatchObject({ status: 504, message: 'Upstream sent no response within 150 ms' });
    await seen[before]!.closed;
  });

  it('a client that goes before the response rejects the call with ClientGoneError and closes the upstream request', async () => {
    const before = seen.length;
    const hangup = new Hangup();
    const pending = callUpstream({ endpoint: upstreamEndpoint(upstream(base), '/silent', ''), headers: {}, body: Buffer.from('{}') }, hangup, timeouts).catch((e: unknown) => e);
    await expect.poll(() => seen.length).toBe(before + 1);
    hangup.fire();
    expect(await pending).toBeInstanceOf(ClientGoneError);
    await seen[before]!.closed;
  });

  it('a client that goes after the headers ends the body with an error and closes the upstream request', async () => {
    const before = seen.length;
    const hangup = new Hangup();
    const response = await callUpstream({ endpoint: upstreamEndpoint(upstream(base), '/stream', ''), headers: {}, body: Buffer.from('{}') }, hangup, timeouts);
    const body = bodyOf(response).catch((e: unknown) => e);
    hangup.fire();
    expect(await body).toBeInstanceOf(ClientGoneError);
    await seen[before]!.closed;
  });
});

describe('UpstreamCall (the dispatch handler, driven as undici drives it)', () => {
  const endpoint = upstreamEndpoint(upstream('http://gw.local:8080'), '/v1/messages', '');
  const controller = () => {
    const aborted: Error[] = [];
    return { aborted, pause() {}, resume() {}, abort: (e: Error) => aborted.push(e) };
  };

  it('given up while still connecting: rejects at once, and aborts the request as soon as undici hands it over', async () => {
    let rejected: unknown;
    const call = new UpstreamCall(endpoint, timeouts, () => undefined, (e) => (rejected = e));
    const reason = new ClientGoneError('client went away');
    call.abort(reason);
    expect(rejected).toBe(reason);
    const c = controller();
    call.onRequestStart(c as never);
    expect(c.aborted).toEqual([reason]);
  });

  it("undici's connect timeout becomes a 504 naming the host and the configured limit; other errors a 502", () => {
    let rejected: unknown;
    const call = new UpstreamCall(endpoint, { connectMs: 2_500, firstByteMs: 30_000 }, () => undefined, (e) => (rejected = e));
    call.onResponseError(controller() as never, Object.assign(new Error('Connect Timeout Error'), { code: 'UND_ERR_CONNECT_TIMEOUT' }));
    expect(rejected).toMatchObject({ status: 504, message: 'Could not connect to gw.local:8080 within 2500 ms' });

    const other = new UpstreamCall(endpoint, timeouts, () => undefined, (e) => (rejected = e));
    other.onResponseError(controller() as never, new Error('other side closed'));
    expect(rejected).toMatchObject({ status: 502, message: 'Upstream gw.local:8080 unreachable: other side closed' });
  });

  it('settles once: an error after the response goes to the body, not to the promise', async () => {
    const outcomes: string[] = [];
    const call = new UpstreamCall(endpoint, timeouts, () => outcomes.push('resolved'), () => outcomes.push('rejected'));
    const c = controller();
    call.onRequestStart(c as never);
    call.onResponseStart(c as never, 200, {});
    call.onResponseError(c as never, new Error('other side closed'));
    expect(outcomes).toEqual(['resolved']);
  });
});
