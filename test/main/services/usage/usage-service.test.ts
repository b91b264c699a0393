import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { CacheHead } from '../../../../main/services/usage/cache-head.js';
import { decodeCacheFile, parseCache, serializeCache } from '../../../../main/services/usage/disk-cache.js';
import { RecordPacker } from '../../../../main/services/usage/record-pack.js';
import { FRESH_MS, MONTHLY_FRESH_MS, STALE_LIMIT_MS, UsageService } from '../../../../main/services/usage/usage-service.js';
import { UsageUnavailableError } from '../../../../main/services/usage/usage-errors.js';
import { UsageViews } from '../../../../main/services/usage/usage-views.js';
import { assistantLine } from '../../../fixtures/usage/lines.js';
import { usageHarness, type UsageHarness } from '../../../fixtures/usage/service.js';

let h: UsageHarness;
afterEach(() => h?.cleanup());

const UTC = { tz: 'UTC' };
const line = (msg: string, input: number, ts = '2026-01-09T10:00:00.000Z') => assistantLine({ msg, req: `r-${msg}`, input, ts });
const inputOf = async () => (await h.service.summary(UTC)).inputTokens;

describe('cache states (spec section 3)', () => {
  it('none: the first reads block on one scan that concurrent readers share', async () => {
    h = await usageHarness();
    await h.append('p/s.jsonl', [line('a', 100)]);
    const [a, b, c] = await Promise.all([h.service.summary(UTC), h.service.daily(UTC), h.service.models(UTC)]);
    expect(a.inputTokens).toBe(100);
    expect(b).toHaveLength(1);
    expect(c.models).toHaveLength(1);
    expect(h.events.refreshed).toEqual([{ timestamp: h.clock.now() }]);
  });

  it('fresh: under a minute the answer comes from memory, without a scan', async () => {
    h = await usageHarness();
    await h.append('p/s.jsonl', [line('a', 100)]);
    await inputOf();
    await h.append('p/s.jsonl', [line('b', 5)]);
    h.clock.advance(FRESH_MS - 1);
    expect(await inputOf()).toBe(100);
    await h.service.whenIdle();
    expect(h.events.refreshed).toHaveLength(1);
  });

  it('stale: the old answer is served at once while one background scan runs, then the new one', async () => {
    h = await usageHarness();
    await h.append('p/s.jsonl', [line('a', 100)]);
    await inputOf();
    await h.append('p/s.jsonl', [line('b', 5)]);
    h.clock.advance(FRESH_MS);
    const [first, second] = await Promise.all([inputOf(), inputOf()]);
    expect([first, second]).toEqual([100, 100]);
    await h.service.whenIdle();
    expect(h.events.refreshed).toHaveLength(2);
    expect(await inputOf()).toBe(105);
  });

  it('monthly stays fresh for five minutes while the other endpoints refresh after one', async () => {
    h = await usageHarness();
    await h.append('p/s.jsonl', [line('a', 100)]);
    await h.service.monthly(UTC);
    h.clock.advance(2 * FRESH_MS);
    await h.service.monthly(UTC);
    await h.service.whenIdle();
    expect(h.events.refreshed).toHaveLength(1);
    await h.service.daily(UTC);
    await h.service.whenIdle();
    expect(h.events.refreshed).toHaveLength(2);
    h.clock.advance(MONTHLY_FRESH_MS);
    await h.service.monthly(UTC);
    await h.service.whenIdle();
    expect(h.events.refreshed).toHaveLength(3);
  });

  it('past seven days the cache is no longer served: the read waits for a scan', async () => {
    h = await usageHarness();
    await h.append('p/s.jsonl', [line('a', 100)]);
    await inputOf();
    await h.append('p/s.jsonl', [line('b', 5)]);
    h.clock.advance(STALE_LIMIT_MS);
    expect(await inputOf()).toBe(105);
  });

  it('refresh(full) drops the caches and waits for a full rescan', async () => {
    h = await usageHarness();
    const file = await h.append('p/s.jsonl', [line('a', 100)]);
    await inputOf();
    // same size and mtime, other content: only a full rescan can see it
    const stat = await fs.stat(file);
    await fs.writeFile(file, `${line('z', 900)}\n`.padEnd(stat.size, ' ').slice(0, stat.size));
    await fs.utimes(file, stat.atimeMs / 1000, stat.mtimeMs / 1000);
    h.clock.advance(1000);
    expect(await h.service.refresh()).toEqual({ timestamp: h.clock.now() });
    if ((await fs.stat(file)).mtimeMs === stat.mtimeMs) expect(await inputOf()).toBe(100); // the incremental refresh trusts size, mtime and inode
    expect(await h.service.refresh(true)).toEqual({ timestamp: h.clock.now() });
    expect(await inputOf()).toBe(900);
  });

  it('refresh reads an append from its offset, a new file whole and a shrunk file again, within the fresh minute', async () => {
    h = await usageHarness();
    const file = await h.append('p/s.jsonl', [line('a', 100)]);
    await inputOf();
    await h.append('p/s.jsonl', [line('b', 5)]);
    await h.append('p/t.jsonl', [line('c', 7)]);
    await h.service.refresh();
    expect(await inputOf()).toBe(112);
    expect(h.service.lastScan()).toMatchObject({ filesRead: 2 });
    expect(h.service.lastScan()!.bytesRead).toBeLessThan((await fs.stat(file)).size + 1000);
    await fs.writeFile(file, `${line('d', 1)}\n`);
    await h.service.refresh();
    expect(await inputOf()).toBe(8);
  });
});

describe('status', () => {
  it('is all null before the first scan, then tells the age by the injected clock', async () => {
    h = await usageHarness();
    expect(await h.service.status()).toEqual({
      cached: false,
      lastFetch: null,
      lastFetchHuman: null,
      cacheAge: null,
      cacheAgeHuman: null,
      files: null,
      malformedLines: null,
      oversizedLines: null,
      scanning: false,
      progress: null,
      lastError: null,
      transcriptsDir: path.join(h.agentDir, 'projects'),
    });
    await h.append('p/s.jsonl', [line('a', 1), 'garbage']);
    await inputOf();
    const scannedAt = h.clock.now();
    h.clock.advance(90_000);
    expect(await h.service.status()).toEqual({
      cached: true,
      lastFetch: scannedAt,
      lastFetchHuman: new Date(scannedAt).toISOString(),
      cacheAge: 90_000,
      cacheAgeHuman: '1 minute',
      files: 1,
      malformedLines: 1,
      oversizedLines: 0,
      scanning: false,
      progress: null,
      lastError: null,
      transcriptsDir: path.join(h.agentDir, 'projects'),
    });
  });

  it('reports a running scan with files and bytes done of the total', async () => {
    h = await usageHarness();
    await h.append('p/a.jsonl', [line('a', 1)]);
    await h.append('p/b.jsonl', [line('b', 2)]);
    const total = (await fs.stat(path.join(h.agentDir, 'projects/p/a.jsonl'))).size + (await fs.stat(path.join(h.agentDir, 'projects/p/b.jsonl'))).size;
    const seen: unknown[] = [];
    let answered = false;
    const onRefreshed = h.service.summary(UTC).finally(() => (answered = true));
    // Polled on every turn of the loop until the read is answered: the in-thread reader yields per file.
    while (!answered) {
      const s = await h.service.status();
      if (s.scanning) seen.push(s.progress);
      await new Promise((r) => setImmediate(r));
    }
    await onRefreshed;
    expect(seen.length).toBeGreaterThan(0);
    expect(seen.at(-1)).toEqual({ filesDone: 2, filesTotal: 2, bytesDone: total, bytesTotal: total });
    expect(seen).toContainEqual({ filesDone: 1, filesTotal: 2, bytesDone: expect.any(Number), bytesTotal: total });
    expect((await h.service.status()).progress).toBeNull();
  });
});

describe('failures', () => {
  it('a missing agent dir is empty data, not a failure', async () => {
    h = await usageHarness();
    await fs.rm(path.join(h.agentDir), { recursive: true });
    expect(await h.service.summary(UTC)).toMatchObject({ totalTokens: 0, dateRange: { from: null, to: null } });
  });

  it('no cache and a failing scan is "unavailable"; with a cache the stale answer is kept', async () => {
    h = await usageHarness();
    await fs.rm(path.join(h.agentDir, 'projects'), { recursive: true });
    await fs.writeFile(path.join(h.agentDir, 'projects'), 'not a directory');
    await expect(h.service.summary(UTC)).rejects.toBeInstanceOf(UsageUnavailableError);

    await fs.rm(path.join(h.agentDir, 'projects'));
    await h.append('p/s.jsonl', [line('a', 7)]);
    expect(await inputOf()).toBe(7);
    await fs.rm(path.join(h.agentDir, 'projects'), { recursive: true });
    await fs.writeFile(path.join(h.agentDir, 'projects'), 'not a directory');
    h.clock.advance(FRESH_MS);
    expect(await inputOf()).toBe(7);
    await h.service.whenIdle();
    expect(await inputOf()).toBe(7);
  });
});

describe('disk cache', () => {
  it('is loaded at start: a restart answers from it at once, stale, and refreshes behind', async () => {
    h = await usageHarness();
    const file = await h.append('p/s.jsonl', [line('a', 100)]);
    await inputOf();
    await h.service.whenPersisted();
    await fs.rm(file);
    h.clock.advance(2 * FRESH_MS);
    const restarted = h.restart();
    expect((await restarted.summary(UTC)).inputTokens).toBe(100);
    await restarted.whenIdle();
    expect((await restarted.summary(UTC)).inputTokens).toBe(0);
  });

  it('after a restart, an appended file is read from where the last run stopped', async () => {
    h = await usageHarness();
    await h.append('p/s.jsonl', [line('a', 100), line('a', 100)]);
    await inputOf();
    await h.service.whenPersisted();
    await h.append('p/s.jsonl', [line('b', 5)]);
    const restarted = h.restart();
    h.clock.advance(STALE_LIMIT_MS);
    expect((await restarted.status()).files).toBe(1);
    expect((await restarted.summary(UTC)).inputTokens).toBe(105);
  });

  it('is rewritten after a scan that changed something, not after one that found nothing new', async () => {
    h = await usageHarness();
    await h.append('p/s.jsonl', [line('a', 100)]);
    await inputOf();
    await h.service.whenPersisted();
    const first = await fs.readFile(h.ctx.paths.usageCache);
    h.clock.advance(FRESH_MS);
    await inputOf();
    await h.service.whenIdle();
    await h.service.whenPersisted();
    expect(h.events.refreshed).toHaveLength(2);
    expect((await fs.readFile(h.ctx.paths.usageCache)).equals(first)).toBe(true);
    await h.append('p/s.jsonl', [line('b', 5)]);
    h.clock.advance(FRESH_MS);
    await inputOf();
    await h.service.whenIdle();
    await h.service.whenPersisted();
    expect((decodeCacheFile(await fs.readFile(h.ctx.paths.usageCache))!.head as { lastFetch: number }).lastFetch).toBe(h.clock.now());
  });

  it('the first write takes the packs a read made; later writes pack afresh (packs are not held on), before and after a restart', async () => {
    h = await usageHarness();
    const lines = (name: string, n: number) => Array.from({ length: n }, (_, i) => line(`${name}${i}`, 1));
    await h.append('p/a.jsonl', lines('a', 40));
    await h.append('p/b.jsonl', lines('b', 40));
    const adds = vi.spyOn(RecordPacker.prototype, 'add');
    try {
      expect(await inputOf()).toBe(80);
      await h.service.whenPersisted();
      expect(adds).toHaveBeenCalledTimes(80); // read in this thread: packed once, by the first write
      const refreshed = async (service: UsageService, input: number) => {
        adds.mockClear();
        h.clock.advance(FRESH_MS);
        await service.summary(UTC);
        await service.whenIdle();
        expect((await service.summary(UTC)).inputTokens).toBe(input);
        await service.whenPersisted();
      };
      await h.append('p/b.jsonl', [line('b40', 1)]);
      await refreshed(h.service, 81);
      expect(adds).toHaveBeenCalledTimes(81); // the first write's packs were let go: everything packed again
      const restarted = h.restart();
      await h.append('p/a.jsonl', [line('a40', 1)]);
      await refreshed(restarted, 82);
      expect(adds).toHaveBeenCalledTimes(41); // a again; b's records written from the segment the restart read
      const bytes = await fs.readFile(h.ctx.paths.usageCache);
      const head = decodeCacheFile(bytes)!.head as CacheHead;
      expect(parseCache(bytes, head.sources, head.prices)!.files.map((f) => f.records.length)).toEqual([41, 41]);
    } finally {
      adds.mockRestore();
    }
  });

  it('a corrupted cache is ignored and rebuilt by the next scan', async () => {
    h = await usageHarness();
    await h.append('p/s.jsonl', [line('a', 100)]);
    await fs.mkdir(path.dirname(h.ctx.paths.usageCache), { recursive: true });
    for (const junk of ['{"format":"switchboard-usage-cache","version":1', '[]', '{"format":"switchboard-usage-cache","version":1,"endian":"LE"}']) {
      await fs.writeFile(h.ctx.paths.usageCache, junk);
      const s = h.restart();
      expect((await s.status()).cached).toBe(false);
      expect((await s.summary(UTC)).inputTokens).toBe(100);
      await s.whenPersisted();
      expect(decodeCacheFile(await fs.readFile(h.ctx.paths.usageCache))).not.toBeNull();
    }
  });

  it('a cache of format 5 (lines without requestId merged by session + message id) is rebuilt, not served', async () => {
    h = await usageHarness();
    // one reply split into two lines at two instants, without requestId: both count now
    const split = (ts: string) => assistantLine({ msg: 'm1', req: null, session: 's1', input: 100, ts });
    await h.append('p/s.jsonl', [split('2026-01-09T10:00:00.000Z'), split('2026-01-09T10:00:01.000Z')]);
    expect(await inputOf()).toBe(200);
    await h.service.whenPersisted();
    await fs.writeFile(h.ctx.paths.usageCache, asFormat5(await fs.readFile(h.ctx.paths.usageCache)));

    const s = h.restart();
    expect((await s.status()).cached).toBe(false);
    expect((await s.summary(UTC)).inputTokens).toBe(200);
    await s.whenPersisted();
    expect(decodeCacheFile(await fs.readFile(h.ctx.paths.usageCache))).not.toBeNull();
  });
});

describe('events', () => {
  it('announces anomalies that are new since the previous scan, not the first baseline', async () => {
    h = await usageHarness();
    // 2026-01-05: input/output 200:1 is already there at the first scan
    await h.append('p/s.jsonl', [
      assistantLine({ msg: 'a', req: 'a', input: 20_000, output: 100, ts: '2026-01-05T10:00:00.000Z' }),
      assistantLine({ msg: 'c', req: 'c', input: 20_000, output: 1000, ts: '2026-01-06T10:00:00.000Z' }),
    ]);
    await inputOf();
    expect(h.events.anomalies).toEqual([]);
    await h.append('p/s.jsonl', [assistantLine({ msg: 'b', req: 'b', input: 11_000_000, output: 1_000_000, ts: '2026-01-08T10:00:00.000Z' })]);
    h.clock.advance(FRESH_MS);
    await inputOf();
    await h.service.whenIdle();
    expect(h.events.anomalies.map((a) => [a.type, a.date])).toEqual([
      ['cost_spike', '2026-01-08'],
      ['high_input', '2026-01-08'],
    ]);
  });
});

describe('anomalies and the terminal', () => {
  const ratioDay = assistantLine({ msg: 'a', req: 'a', input: 20_000, output: 100, ts: '2026-01-05T10:00:00.000Z' });
  const plainDay = assistantLine({ msg: 'c', req: 'c', input: 20_000, output: 1000, ts: '2026-01-06T10:00:00.000Z' });
  const spikeDay = assistantLine({ msg: 'b', req: 'b', input: 11_000_000, output: 1_000_000, ts: '2026-01-08T10:00:00.000Z' });

  it('a service that announces nothing (the CLI) never sums the history for it and leaves the cache without a baseline', async () => {
    h = await usageHarness();
    await h.service.stop();
    await h.append('p/s.jsonl', [ratioDay, plainDay]);
    const insights = vi.spyOn(UsageViews.prototype, 'insights');
    try {
      const cli = new UsageService(h.ctx, { pool: null });
      cli.start({ announceAnomalies: false });
      expect((await cli.summary(UTC)).inputTokens).toBe(40_000);
      await cli.stop();
      expect(insights).not.toHaveBeenCalled();
    } finally {
      insights.mockRestore();
    }
    const decoded = decodeCacheFile(await fs.readFile(h.ctx.paths.usageCache));
    expect((decoded!.head as CacheHead).seenAnomalies).toBeNull();
  });

  it('the app starting from such a cache takes what it holds as the baseline, then announces only what is new', async () => {
    h = await usageHarness();
    await h.service.stop();
    await h.append('p/s.jsonl', [ratioDay, plainDay]);
    const cli = new UsageService(h.ctx, { pool: null });
    cli.start({ announceAnomalies: false });
    await cli.summary(UTC);
    await cli.stop();
    const app = h.restart();
    expect((await app.summary(UTC)).inputTokens).toBe(40_000); // from the disk cache, fresh
    await h.append('p/s.jsonl', [spikeDay]);
    h.clock.advance(FRESH_MS);
    await app.summary(UTC);
    await app.whenIdle();
    expect((await app.summary(UTC)).inputTokens).toBe(11_040_000);
    expect(h.events.anomalies.map((a) => [a.type, a.date])).toEqual([
      ['cost_spike', '2026-01-08'],
      ['high_input', '2026-01-08'],
    ]);
  });
});

describe('timezone', () => {
  it('groups by usage.timezone from config.yaml unless tz says otherwise', async () => {
    h = await usageHarness({ config: 'usage:\n  timezone: Asia/Tokyo\n' });
    await h.append('p/s.jsonl', [line('a', 1, '2026-01-09T20:00:00.000Z')]);
    expect((await h.service.daily({})).map((d) => d.date)).toEqual(['2026-01-10']);
    expect((await h.service.daily({ tz: 'America/Los_Angeles' })).map((d) => d.date)).toEqual(['2026-01-09']);
  });
});

describe('stopping (the app quitting)', () => {
  it('ends a running scan instead of waiting for it: nothing is applied or written', async () => {
    h = await usageHarness();
    for (let i = 0; i < 40; i++) await h.append(`p/s${i}.jsonl`, [line(`m${i}`, 1)]);
    process.env.SWITCHBOARD_TEST_SCAN_DELAY_MS = '200'; // 40 files × 200 ms: an 8 s scan
    try {
      const read = h.service.summary(UTC).catch((err: unknown) => err);
      await expect.poll(async () => (await h.service.status()).progress?.filesDone ?? 0, { timeout: 30_000 }).toBeGreaterThan(0);
      const t0 = performance.now();
      await h.service.stop();
      expect(performance.now() - t0).toBeLessThan(5_000);
      expect(await read).toBeInstanceOf(UsageUnavailableError);
      await expect(fs.stat(h.ctx.paths.usageCache)).rejects.toThrow(/ENOENT/);
    } finally {
      delete process.env.SWITCHBOARD_TEST_SCAN_DELAY_MS;
    }
  });

  it('a service stopped before its disk cache loaded starts no scan at all', async () => {
    h = await usageHarness();
    await h.append('p/s.jsonl', [line('a', 100)]);
    const fresh = new UsageService(h.ctx, { pool: null });
    fresh.start({ scanWithoutCache: true });
    await fresh.stop();
    expect((await fresh.status()).scanning).toBe(false);
    expect(fresh.lastScan()).toBeNull();
  });
});

describe('sessions filtered by project', () => {
  it('finds a session under every project it has requests in, as the Projects table counts it', async () => {
    h = await usageHarness();
    await h.append('p/s.jsonl', [
      assistantLine({ msg: 'a', req: 'ra', ts: '2026-01-09T09:00:00.000Z', input: 10, session: 'moved', cwd: '/w/a' }),
      assistantLine({ msg: 'b', req: 'rb', ts: '2026-01-09T10:00:00.000Z', input: 20, session: 'moved', cwd: '/w/b' }),
      assistantLine({ msg: 'c', req: 'rc', ts: '2026-01-09T11:00:00.000Z', input: 30, session: 'stayed', cwd: '/w/b' }),
    ]);
    const projects = await h.service.projects(UTC);
    expect(projects.map((p) => [p.projectPath, p.sessions])).toEqual([
      ['/w/b', 2],
      ['/w/a', 1],
    ]);
    const inA = await h.service.sessions(UTC, 50, 0, { project: '/w/a' });
    expect(inA.sessions.map((s) => [s.sessionId, s.projectPath])).toEqual([['moved', '/w/b']]); // its figures stay the whole session's
    const inB = await h.service.sessions(UTC, 50, 0, { project: '/w/b' });
    expect(inB.total).toBe(2);
  });
});

/**
 * What version 5 wrote for the same transcript: one request under the old key (session + message
 * id) in an otherwise intact cache, with the file's read state unchanged, so if it were accepted
 * nothing would be read again and the old count would be served.
 */
function asFormat5(bytes: Buffer): Buffer {
  const head = decodeCacheFile(bytes)!.head as CacheHead;
  const snapshot = parseCache(bytes, head.sources, head.prices)!;
  const [file] = snapshot.files;
  const kept = { ...file!.records[0]!, key: '\u0001s1\u0000m1' };
  const old = serializeCache({ ...snapshot, files: [{ ...file!, records: [kept], tail: [] }], kept: [[kept]] }, head.sources, head.prices);
  // The format version, in the writer's byte order; the checksum covers only what follows the header.
  if (os.endianness() === 'LE') old.writeUInt32LE(5, 12);
  else old.writeUInt32BE(5, 12);
  return old;
}

describe('numbers from outside (issue 27 point 11)', () => {
  it('a logged costUSD of 1e308 is refused and counted: the total stays finite, never Infinity (JSON null, `$∞`)', async () => {
    h = await usageHarness();
    await h.append('p/s.jsonl', [
      assistantLine({ msg: 'a', req: 'ra', input: 10, costUSD: 0.5 }),
      assistantLine({ msg: 'b', req: 'rb', input: 10, costUSD: 1e308 }),
      assistantLine({ msg: 'c', req: 'rc', input: 10, costUSD: 1e308 }),
    ]);
    for (const mode of ['auto', 'display'] as const) {
      const summary = await h.service.summary({ ...UTC, mode });
      expect(summary.totalCost).toBe(0.5);
      expect(JSON.parse(JSON.stringify(summary)).totalCost).toBe(0.5);
    }
    expect((await h.service.status()).malformedLines).toBe(2);
  });
});
