import fs from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../helpers/app.js';

/** The request log's history with the engine stopped, from a file that is not all good (issue 27 point 12). */
/** The read bound of each history file (request-history.ts, docs/proxy-engine.md). */
const MAX_HISTORY_FILE = 16 << 20;
let app: TestApp | undefined;
afterEach(async () => {
  await app?.stop();
  app = undefined;
});

const entry = (id: string, time: number, extra: Record<string, unknown> = {}) => ({
  id,
  time,
  format: 'openai',
  method: 'POST',
  path: '/v1/chat/completions',
  modelRequested: 'gpt-4o',
  modelSent: 'gpt-4o',
  upstream: 'oa',
  keyIndex: 0,
  status: 200,
  outcome: 'ok',
  latencyMs: 12,
  ttfbMs: null,
  tokens: { input: 1000, output: 10, cacheRead: 0, cacheWrite: 0 },
  session: null,
  error: null,
  errorLog: null,
  ...extra,
});

async function startWith(lines: string[] | string): Promise<TestApp> {
  app = await startTestApp({
    before: async ({ home }) => {
      const logs = path.join(home, 'proxy', 'logs');
      await fs.mkdir(logs, { recursive: true });
      await fs.writeFile(path.join(logs, 'requests.jsonl'), typeof lines === 'string' ? lines : lines.join('\n') + '\n', { mode: 0o600 });
    },
  });
  return app;
}

describe('request history with the engine stopped', () => {
  it('skips a line that lacks a field or holds a number from outside, counts it, and answers the rest', async () => {
    const { modelSent: _gone, ...noModelSent } = entry('b', 2_000);
    const a = await startWith([
      JSON.stringify(entry('a', 1_000)),
      JSON.stringify(noModelSent),
      JSON.stringify(entry('c', 3_000, { tokens: { input: 1e308, output: 1, cacheRead: 0, cacheWrite: 0 } })),
      JSON.stringify(entry('d', 4_000, { tokens: { input: -5, output: 2.5, cacheRead: 2 ** 60, cacheWrite: 0 } })),
      JSON.stringify(entry('e', 5_000, { outcome: 'exploded' })),
      '{"id":"f","time":6000', // cut by a crash
      JSON.stringify(entry('g', 7_000)),
    ]);
    const list = await a.json('GET', '/api/proxy/requests?limit=1000');
    expect(list.status).toBe(200);
    expect(list.body.requests.map((e: { id: string }) => e.id)).toEqual(['g', 'a']);
    expect(list.body.total).toBe(2);
    expect(list.body.skippedLines).toBe(5);
    expect(list.body.requests[0].costUSD).toBeGreaterThan(0);
    const stats = await a.json('GET', '/api/proxy/requests/stats');
    expect(stats.status).toBe(200);
    expect(stats.body).toMatchObject({ skippedLines: 5, refusedNumbers: null });
  });

  it('reads the newest part of a file over its read bound instead of refusing it all', async () => {
    const line = (i: number) => JSON.stringify(entry(`r${i}`, i, { error: 'x'.repeat(900) }));
    const perLine = Buffer.byteLength(line(100_000)) + 1;
    const count = Math.ceil((MAX_HISTORY_FILE * 1.25) / perLine);
    const lines = Array.from({ length: count }, (_, i) => line(100_000 + i));
    const a = await startWith(lines);
    const list = await a.json('GET', '/api/proxy/requests?limit=1');
    expect(list.status).toBe(200);
    expect(list.body.requests[0].id).toBe(`r${100_000 + count - 1}`);
    // Only whole lines from the newest 16 MiB: the one cut at the start of that part is not counted.
    expect(list.body.total).toBeLessThanOrEqual(Math.floor(MAX_HISTORY_FILE / perLine));
    expect(list.body.total).toBeGreaterThan(Math.floor(MAX_HISTORY_FILE / perLine) - 2);
    expect(list.body.skippedLines).toBe(0);
  });
});
