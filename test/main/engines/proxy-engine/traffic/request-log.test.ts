import fs from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { silentLogger } from '../../../../../main/infra/logger.js';
import type { RequestLogEntry } from '../../../../../main/engines/proxy-engine/traffic/request-entry.js';
import { RequestLog } from '../../../../../main/engines/proxy-engine/traffic/request-log.js';
import { makeTempDir } from '../../../../helpers/temp-dir.js';

let dir: string;
let cleanup: () => Promise<void>;
const opened: RequestLog[] = [];
beforeEach(async () => ({ dir, cleanup } = await makeTempDir('sb-reqlog-')));
// A log's flush is timed: one still pending when the folder goes would make it again (issue 28.8).
afterEach(async () => {
  await Promise.all(opened.splice(0).map((log) => log.closeFileWhenDrained()));
  await cleanup();
});

function open(...args: ConstructorParameters<typeof RequestLog>): RequestLog {
  const log = new RequestLog(...args);
  opened.push(log);
  return log;
}

function entry(log: RequestLog, over: Partial<RequestLogEntry> = {}): RequestLogEntry {
  return {
    id: log.nextId(),
    time: 1_767_225_600_000,
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
    tokens: null,
    session: null,
    error: null,
    errorLog: null,
    ...over,
  };
}

const all = { limit: 1000 };

describe('RequestLog ring', () => {
  it('keeps the newest `capacity` entries, newest first, and says when it dropped some', async () => {
    const log = open(dir, silentLogger, 0, { capacity: 3, maxFileBytes: 1 << 20 });
    for (let i = 0; i < 2; i++) log.add(entry(log));
    expect(log.query(all).wrapped).toBe(false);
    for (let i = 0; i < 3; i++) log.add(entry(log));
    const page = log.query(all);
    expect(page.requests.map((e) => e.id)).toEqual(['0-5', '0-4', '0-3']);
    expect(page.total).toBe(3);
    expect(page.wrapped).toBe(true);
    await log.drained();
    // The file keeps everything the ring let go.
    const lines = (await fs.readFile(path.join(dir, 'requests.jsonl'), 'utf8')).trim().split('\n');
    expect(lines.map((l) => (JSON.parse(l) as RequestLogEntry).id)).toEqual(['0-1', '0-2', '0-3', '0-4', '0-5']);
  });

  it('remembers the last error and counts errors per minute, not client aborts', () => {
    const log = open(dir, silentLogger, 0, { capacity: 10, maxFileBytes: 1 << 20 });
    const t = 1_767_225_600_000;
    log.add(entry(log, { time: t, status: 500, outcome: 'error' }));
    log.add(entry(log, { time: t + 1, status: 200, outcome: 'stream_error' }));
    log.add(entry(log, { time: t + 2, status: 499, outcome: 'aborted' }));
    log.add(entry(log, { time: t + 61_000 }));
    expect(log.lastError()?.id).toBe('0-2');
    const series = log.perMinute(t + 61_000);
    expect(series).toHaveLength(61);
    expect(series.slice(-2)).toEqual([
      { minute: t, requests: 3, errors: 2 },
      { minute: t + 60_000, requests: 1, errors: 0 },
    ]);
  });

  it('hands every new entry and its JSON line to subscribers until they unsubscribe, and ends them on close', () => {
    const log = open(dir, silentLogger, 0, { capacity: 10, maxFileBytes: 1 << 20 });
    const seen: string[] = [];
    let ended = 0;
    const off = log.subscribe({ entry: (e, line) => seen.push(`${e.id} ${JSON.parse(line).id}`), end: () => ended++ });
    log.add(entry(log));
    off();
    log.add(entry(log));
    log.subscribe({ entry: () => undefined, end: () => ended++ });
    log.close();
    expect(seen).toEqual(['0-1 0-1']);
    expect(ended).toBe(1);
  });
});

describe('RequestLog file', () => {
  it('rotates requests.jsonl to requests.1.jsonl at the size cap, keeping one generation, mode 0600', async () => {
    const log = open(dir, silentLogger, 0, { capacity: 100, maxFileBytes: 1500 });
    const lineBytes = JSON.stringify(entry(open(dir, silentLogger, 0))).length + 1;
    const perFile = Math.floor(1500 / lineBytes);
    for (let i = 0; i < perFile * 3 + 1; i++) {
      log.add(entry(log));
      await log.drained();
    }
    const current = (await fs.readFile(path.join(dir, 'requests.jsonl'), 'utf8')).trim().split('\n');
    const rotated = (await fs.readFile(path.join(dir, 'requests.1.jsonl'), 'utf8')).trim().split('\n');
    expect(current).toHaveLength(1);
    expect(rotated).toHaveLength(perFile);
    expect((JSON.parse(current[0]!) as RequestLogEntry).id).toBe(`0-${perFile * 3 + 1}`);
    expect((await fs.stat(path.join(dir, 'requests.jsonl'))).size).toBeLessThanOrEqual(1500);
    expect((await fs.stat(path.join(dir, 'requests.1.jsonl'))).size).toBeLessThanOrEqual(1500);
    expect((await fs.stat(path.join(dir, 'requests.jsonl'))).mode & 0o777).toBe(0o600);
    expect((await fs.readdir(dir)).sort()).toEqual(['requests.1.jsonl', 'requests.jsonl']);
  });

  it('appends to a file an earlier engine left, counting its size toward the cap', async () => {
    await fs.writeFile(path.join(dir, 'requests.jsonl'), 'x'.repeat(1400) + '\n');
    const log = open(dir, silentLogger, 0, { capacity: 10, maxFileBytes: 1500 });
    log.add(entry(log));
    await log.drained();
    expect((await fs.readFile(path.join(dir, 'requests.1.jsonl'), 'utf8')).startsWith('xxx')).toBe(true);
    expect(JSON.parse(await fs.readFile(path.join(dir, 'requests.jsonl'), 'utf8')).id).toBe('0-1');
  });

  it('batches many entries of one turn into one write', async () => {
    const log = open(dir, silentLogger, 0, { capacity: 1000, maxFileBytes: 1 << 20 });
    for (let i = 0; i < 500; i++) log.add(entry(log));
    await log.drained();
    expect((await fs.readFile(path.join(dir, 'requests.jsonl'), 'utf8')).trim().split('\n')).toHaveLength(500);
  });

  it('holds lines for the flush delay, across event-loop turns, and writes them in one append', async () => {
    const log = open(dir, silentLogger, 0, { capacity: 100, maxFileBytes: 1 << 20, flushDelayMs: 60_000 });
    for (let i = 0; i < 3; i++) {
      log.add(entry(log));
      await new Promise((resolve) => setImmediate(resolve));
    }
    // Nothing is written before the delay: a write per request cost a thread-pool hop each.
    await expect(fs.stat(path.join(dir, 'requests.jsonl'))).rejects.toMatchObject({ code: 'ENOENT' });
    await log.drained();
    const lines = (await fs.readFile(path.join(dir, 'requests.jsonl'), 'utf8')).trim().split('\n');
    expect(lines.map((l) => (JSON.parse(l) as RequestLogEntry).id)).toEqual(['0-1', '0-2', '0-3']);
  });

  it('writes on its own once the delay has passed, without anyone draining it', async () => {
    const log = open(dir, silentLogger, 0, { capacity: 100, maxFileBytes: 1 << 20, flushDelayMs: 20 });
    log.add(entry(log));
    await vi.waitFor(async () => expect(await fs.readFile(path.join(dir, 'requests.jsonl'), 'utf8')).toContain('"0-1"'), { timeout: 10_000, interval: 20 });
    log.add(entry(log));
    await vi.waitFor(async () => expect(await fs.readFile(path.join(dir, 'requests.jsonl'), 'utf8')).toContain('"0-2"'), { timeout: 10_000, interval: 20 });
    await log.closeFileWhenDrained();
  });

  it('keeps working in memory when the directory cannot be written', async () => {
    await fs.writeFile(path.join(dir, 'file'), '');
    const warnings: string[] = [];
    const log = open(path.join(dir, 'file', 'logs'), { ...silentLogger, warn: (m: string) => warnings.push(m) }, 0, { capacity: 10, maxFileBytes: 1 << 20 });
    log.add(entry(log));
    await log.drained();
    log.add(entry(log));
    await log.drained();
    expect(log.query(all).total).toBe(2);
    expect(warnings).toHaveLength(1);
  });
});
