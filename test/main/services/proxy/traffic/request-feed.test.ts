import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { createLogger } from '../../../../../main/infra/logger.js';
import { RequestFeed } from '../../../../../main/services/proxy/traffic/request-feed.js';

let server: http.Server | undefined;
let feed: RequestFeed | undefined;
afterEach(async () => {
  feed?.close();
  await new Promise((r) => (server ? server.close(r) : r(undefined)));
  server = undefined;
});

describe('RequestFeed', () => {
  it('backs off while the engine refuses it (doubling), and logs the refusal once, not per try', async () => {
    const hits: number[] = [];
    server = http.createServer((_req, res) => {
      hits.push(performance.now());
      res.writeHead(401, { 'content-type': 'application/json' }).end('{"error":"Unauthorized"}');
    });
    await new Promise<void>((r) => server!.listen(0, '127.0.0.1', r));
    const logs: string[] = [];
    feed = new RequestFeed(() => undefined, createLogger('warn', (l) => logs.push(l)), 20);
    feed.follow({ baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, secret: 'old-secret' });
    await expect.poll(() => hits.length, { timeout: 30_000 }).toBeGreaterThanOrEqual(5);
    // Gaps grow: 20, 40, 80, 160 ms... at least (timers never fire early; a fixed 20 ms retry
    // would give ~20 ms gaps on a quiet machine).
    const gaps = hits.slice(1).map((t, i) => t - hits[i]!);
    expect(gaps[3]!).toBeGreaterThanOrEqual(150);
    expect(logs.filter((l) => l.includes('request feed: the engine answered 401'))).toHaveLength(1);
  });

  it('reads one entry per line once the engine accepts it, skipping a line that is not an entry', async () => {
    const entry = (id: string, status: number) =>
      JSON.stringify({ id, time: 1, format: 'openai', method: 'POST', path: '/v1/x', modelRequested: null, modelSent: null, upstream: null, keyIndex: null, status, outcome: 'ok', latencyMs: 1, ttfbMs: null, tokens: null, session: null, error: null, errorLog: null });
    server = http.createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/x-ndjson' });
      const [head, tail] = [entry('a-2', 500).slice(0, 20), entry('a-2', 500).slice(20)];
      res.write(`${entry('a-1', 200)}\n{"id":"bad","time":1,"status":200}\n${head}`);
      res.write(`${tail}\n`);
    });
    await new Promise<void>((r) => server!.listen(0, '127.0.0.1', r));
    const seen: string[] = [];
    feed = new RequestFeed((e) => seen.push(e.id), createLogger('warn', () => undefined), 20);
    feed.follow({ baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, secret: 's' });
    await expect.poll(() => seen, { timeout: 30_000 }).toEqual(['a-1', 'a-2']);
    server.closeAllConnections();
  });
});
