import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { HotAnswers } from '../../../main/api/hot-answers.js';
import { ManualClock } from '../../../main/infra/clock.js';

const T0 = Date.UTC(2026, 0, 10, 12);

function setup() {
  const clock = new ManualClock(T0);
  let stamp = 's1';
  const served = { count: 0 };
  const hot = new HotAnswers(clock, { answersStamp: () => stamp, rememberedRead: () => void served.count++ });
  return { clock, hot, served, setStamp: (s: string) => (stamp = s) };
}

describe('HotAnswers: what is remembered and for how long', () => {
  it('hands out the remembered bytes until the time the service gave', () => {
    const { clock, hot } = setup();
    hot.remember('/api/usage/summary?tz=UTC', '{"a":1}', 's1', T0 + 60_000, true);
    expect(hot.lookup('/api/usage/summary?tz=UTC')?.toString()).toBe('{"a":1}');
    expect(hot.lookup('/api/usage/summary?tz=utc')).toBeUndefined(); // the exact target, nothing looser
    clock.advance(59_999);
    expect(hot.lookup('/api/usage/summary?tz=UTC')).toBeDefined();
    clock.advance(1);
    expect(hot.lookup('/api/usage/summary?tz=UTC')).toBeUndefined();
  });

  it('drops an answer once the source stamp moves (new data, another default zone)', () => {
    const { hot, setStamp } = setup();
    hot.remember('/a', '1', 's1', T0 + 60_000, true);
    setStamp('s2');
    expect(hot.lookup('/a')).toBeUndefined();
    setStamp('s1'); // dropped for good, not hidden
    expect(hot.lookup('/a')).toBeUndefined();
  });

  it('refuses answers given under an older stamp, already expired, or too big', () => {
    const { hot } = setup();
    hot.remember('/old', '1', 's0', T0 + 60_000, true);
    hot.remember('/expired', '1', 's1', T0, true);
    hot.remember('/big', JSON.stringify('x'.repeat(1 << 20)), 's1', T0 + 60_000, true);
    expect([hot.lookup('/old'), hot.lookup('/expired'), hot.lookup('/big')]).toEqual([undefined, undefined, undefined]);
  });

  it('keeps at most 256 answers, dropping the oldest', () => {
    const { hot } = setup();
    for (let i = 0; i < 300; i++) hot.remember(`/u${i}`, String(i), 's1', T0 + 60_000, true);
    expect(hot.lookup('/u0')).toBeUndefined();
    expect(hot.lookup('/u43')).toBeUndefined();
    expect(hot.lookup('/u44')?.toString()).toBe('44');
    expect(hot.lookup('/u299')?.toString()).toBe('299');
  });

  it('lists only valid answers that outlive a restart', () => {
    const { clock, hot } = setup();
    hot.remember('/lasting', '"l"', 's1', T0 + 60_000, true);
    hot.remember('/clock', '"c"', 's1', T0 + 60_000, false);
    hot.remember('/soon', '"s"', 's1', T0 + 10, true);
    clock.advance(10);
    expect(hot.lastingAnswers()).toEqual([['/lasting', '"l"']]);
  });

  it('attach() starts over with the new source', () => {
    const { hot } = setup();
    hot.remember('/a', '1', 's1', T0 + 60_000, true);
    hot.attach({ answersStamp: () => 's1', rememberedRead: () => undefined });
    expect(hot.lookup('/a')).toBeUndefined();
  });
});

describe('HotAnswers.serve: only a plain GET from an allowed Host', () => {
  let server: http.Server | undefined;
  afterEach(() => new Promise<void>((r) => (server ? server.close(() => r()) : r())));

  async function start(hot: HotAnswers): Promise<number> {
    server = http.createServer((req, res) => {
      if (hot.serve(req, res)) return;
      res.writeHead(299).end('router'); // stands in for Express
    });
    await new Promise<void>((r) => server!.listen(0, '127.0.0.1', r));
    return (server.address() as AddressInfo).port;
  }

  function send(port: number, method: string, path: string, headers: Record<string, string | number> = {}, body?: string) {
    return new Promise<{ status: number; headers: http.IncomingHttpHeaders; body: string }>((resolve, reject) => {
      const req = http.request({ host: '127.0.0.1', port, method, path, headers: { host: `127.0.0.1:${port}`, ...headers }, agent: false }, (res) => {
        let text = '';
        res.on('data', (c) => (text += c));
        res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: text }));
      });
      req.on('error', reject);
      req.end(body);
    });
  }

  it('answers a remembered GET with the JSON headers Express sends', async () => {
    const { hot } = setup();
    hot.remember('/api/usage/summary?tz=UTC', '{"totalTokens":5,"note":"é"}', 's1', T0 + 60_000, true);
    const port = await start(hot);
    const res = await send(port, 'GET', '/api/usage/summary?tz=UTC');
    expect(res.status).toBe(200);
    expect(res.body).toBe('{"totalTokens":5,"note":"é"}');
    expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(res.headers['content-length']).toBe(String(Buffer.byteLength(res.body)));
    expect(await send(port, 'GET', '/api/usage/summary?tz=UTC', { host: `localhost:${port}` })).toMatchObject({ status: 200 });
  });

  it('tells the source of each answer it hands out, and of nothing else', async () => {
    const { hot, served } = setup();
    hot.remember('/r', '1', 's1', T0 + 60_000, true);
    const port = await start(hot);
    await send(port, 'GET', '/r');
    await send(port, 'GET', '/r');
    await send(port, 'GET', '/other');
    await send(port, 'GET', '/r', { host: 'evil.example:80' });
    expect(hot.lookup('/r')).toBeDefined();
    expect(served.count).toBe(2);
  });

  it('hands everything else to the router', async () => {
    const { hot } = setup();
    hot.remember('/r', '1', 's1', T0 + 60_000, true);
    const port = await start(hot);
    const router = { status: 299, body: 'router' };
    expect(await send(port, 'GET', '/other')).toMatchObject(router);
    expect(await send(port, 'HEAD', '/r')).toMatchObject({ status: 299 });
    expect(await send(port, 'POST', '/r', {}, '{}')).toMatchObject(router);
    expect(await send(port, 'GET', '/r', { host: 'evil.example:80' })).toMatchObject(router);
    expect(await send(port, 'GET', '/r', { host: `127.0.0.1:${port + 1}` })).toMatchObject(router);
    expect(await send(port, 'GET', '/r', { 'content-type': 'application/json', 'content-length': 3 }, '{x}')).toMatchObject(router);
    expect(await send(port, 'GET', '/r', { 'content-length': 0 })).toMatchObject({ status: 200, body: '1' });
  });
});
