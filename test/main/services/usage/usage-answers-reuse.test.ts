import fs from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { FRESH_MS, STALE_LIMIT_MS } from '../../../../main/services/usage/usage-service.js';
import { assistantLine } from '../../../fixtures/usage/lines.js';
import { usageHarness, type UsageHarness } from '../../../fixtures/usage/service.js';

// What the service tells the API about reusing its answers (main/api/hot-answers.ts) and about
// its disk cache (main/api/warm-answers.ts).
let h: UsageHarness;
afterEach(() => h?.cleanup());

const line = (msg: string, input: number) => assistantLine({ msg, req: `r-${msg}`, input, ts: '2026-01-09T10:00:00.000Z' });

describe('reuse()', () => {
  it('nothing to reuse before data exists', async () => {
    h = await usageHarness();
    expect(h.service.reuse('summary', { tz: 'UTC' })).toBeNull();
  });

  it('answers hold while the data is merely stale (a remembered read refreshes it), not past the 7-day limit', async () => {
    h = await usageHarness();
    await h.append('p/s.jsonl', [line('a', 1)]);
    await h.service.summary({ tz: 'UTC' });
    const t = h.clock.now();
    expect(h.service.reuse('summary', { tz: 'UTC' })).toEqual({ until: t + STALE_LIMIT_MS, lasting: true });
    expect(h.service.reuse('monthly', { tz: 'UTC' })).toEqual({ until: t + STALE_LIMIT_MS, lasting: true });
    h.clock.advance(FRESH_MS);
    expect(h.service.reuse('summary', { tz: 'UTC' })).not.toBeNull();
    h.clock.advance(STALE_LIMIT_MS - FRESH_MS);
    expect(h.service.reuse('summary', { tz: 'UTC' })).toBeNull();
  });

  it('hourly answers end with the quarter hour and never outlive a restart', async () => {
    h = await usageHarness(); // clock at 12:00:00 UTC
    await h.append('p/s.jsonl', [line('a', 1)]);
    await h.service.hourly({ tz: 'UTC' });
    expect(h.service.reuse('hourly', { tz: 'UTC' })).toEqual({ until: Date.UTC(2026, 0, 10, 12, 15), lasting: false });
    h.clock.advance(14 * 60_000 + 30_000);
    await h.service.hourly({ tz: 'UTC' });
    expect(h.service.reuse('hourly', { tz: 'UTC' })).toEqual({ until: Date.UTC(2026, 0, 10, 12, 15), lasting: false });
    h.clock.advance(30_000);
    await h.service.hourly({ tz: 'UTC' });
    expect(h.service.reuse('hourly', { tz: 'UTC' })?.until).toBe(Date.UTC(2026, 0, 10, 12, 30));
  });

  it('default-zone answers hold like the others but are not lasting', async () => {
    h = await usageHarness({ config: 'usage:\n  timezone: Asia/Tokyo\n' });
    await h.append('p/s.jsonl', [line('a', 1)]);
    await h.service.summary({});
    expect(h.service.reuse('summary', {})).toEqual({ until: h.clock.now() + STALE_LIMIT_MS, lasting: false });
  });

  it('answersStamp moves with new data', async () => {
    h = await usageHarness();
    await h.append('p/s.jsonl', [line('a', 1)]);
    await h.service.summary({ tz: 'UTC' });
    const before = h.service.answersStamp();
    await h.append('p/s.jsonl', [line('b', 2)]);
    h.clock.advance(FRESH_MS);
    await h.service.summary({ tz: 'UTC' });
    await h.service.whenIdle();
    expect(h.service.answersStamp()).not.toBe(before);
  });
});

describe('rememberedRead()', () => {
  it('starts the refresh once the data is stale, and not before', async () => {
    h = await usageHarness();
    await h.append('p/s.jsonl', [line('a', 1)]);
    await h.service.summary({ tz: 'UTC' });
    const before = h.service.answersStamp();
    await h.append('p/s.jsonl', [line('b', 2)]);
    h.service.rememberedRead();
    await h.service.whenIdle();
    expect(h.service.answersStamp()).toBe(before); // fresh: nothing started
    h.clock.advance(FRESH_MS);
    h.service.rememberedRead();
    h.service.rememberedRead(); // one refresh, not two
    await h.service.whenIdle();
    expect(h.service.answersStamp()).not.toBe(before);
    expect((await h.service.summary({ tz: 'UTC' })).inputTokens).toBe(3);
  });

  it('re-reads the default zone when due; a zone changed outside the app moves the stamp', async () => {
    h = await usageHarness({ config: 'usage:\n  timezone: Asia/Tokyo\n' });
    await h.append('p/s.jsonl', [line('a', 1)]);
    await h.service.summary({});
    const before = h.service.answersStamp();
    await fs.writeFile(path.join(h.configDir, 'config.yaml'), 'usage:\n  timezone: UTC\n');
    h.service.rememberedRead();
    await new Promise((r) => setTimeout(r, 50));
    expect(h.service.answersStamp()).toBe(before); // read less than 5 s ago: kept
    h.clock.advance(5_000);
    h.service.rememberedRead();
    await vi.waitFor(() => expect(h.service.answersStamp()).not.toBe(before));
  });
});

describe('diskCacheIdentity()', () => {
  it('is the written file once the write is done, with the lastFetch a restart reads', async () => {
    h = await usageHarness();
    await h.append('p/s.jsonl', [line('a', 1)]);
    await h.service.summary({ tz: 'UTC' });
    const id = await h.service.diskCacheIdentity();
    const s = await fs.stat(h.ctx.paths.usageCache);
    expect(id).toEqual({ size: s.size, mtimeMs: s.mtimeMs, ino: s.ino, lastFetch: h.clock.now() });
    // A later scan that finds nothing new moves lastFetch in memory only: the file keeps its own.
    const written = h.clock.now();
    h.clock.advance(FRESH_MS);
    await h.service.summary({ tz: 'UTC' });
    await h.service.whenIdle();
    expect((await h.service.diskCacheIdentity())?.lastFetch).toBe(written);
  });

  it('is null while the file holds other data than memory (a failed write)', async () => {
    h = await usageHarness();
    await h.append('p/s.jsonl', [line('a', 1)]);
    await h.service.summary({ tz: 'UTC' });
    expect(await h.service.diskCacheIdentity()).not.toBeNull();
    await fs.rm(h.ctx.paths.usageCache);
    await fs.mkdir(h.ctx.paths.usageCache); // the next write cannot replace a directory
    await h.append('p/s.jsonl', [line('b', 2)]);
    h.clock.advance(FRESH_MS);
    await h.service.summary({ tz: 'UTC' });
    await h.service.whenIdle();
    expect(await h.service.diskCacheIdentity()).toBeNull();
  });

  it('is the file this service wrote, not one another process put at the path since', async () => {
    h = await usageHarness();
    await h.append('p/s.jsonl', [line('a', 1)]);
    await h.service.summary({ tz: 'UTC' });
    await h.service.whenPersisted();
    const ours = await fs.stat(h.ctx.paths.usageCache);
    // Another Switchboard (the server beside a CLI run) replaces the cache with newer data.
    const other = `${h.ctx.paths.usageCache}.other`;
    await fs.writeFile(other, Buffer.concat([await fs.readFile(h.ctx.paths.usageCache), Buffer.from(' ')]));
    await fs.rename(other, h.ctx.paths.usageCache);
    const theirs = await fs.stat(h.ctx.paths.usageCache);
    expect(theirs.ino).not.toBe(ours.ino);
    expect(await h.service.diskCacheIdentity()).toEqual({ size: ours.size, mtimeMs: ours.mtimeMs, ino: ours.ino, lastFetch: h.clock.now() });
  });

  it('after a restart, is the file it was restored from', async () => {
    h = await usageHarness();
    await h.append('p/s.jsonl', [line('a', 1)]);
    await h.service.summary({ tz: 'UTC' });
    await h.service.whenPersisted();
    const restarted = h.restart();
    await restarted.status();
    expect(await restarted.diskCacheIdentity()).toEqual(await h.service.diskCacheIdentity());
  });
});
