import { describe, expect, it } from 'vitest';
import { mayBeMidWrite, readSettled, SETTLE_LIMITS, type TimedRead } from '../../../main/infra/settled-read.js';

const NOW = 1_800_000_000_000;
const OLD = NOW - 60_000;
const id = (size: number, mtimeMs: number, ino = 7) => ({ size, mtimeMs, ino });
const read = (bytes: string, before = id(bytes.length, OLD), after: TimedRead['after'] = before): TimedRead => ({ bytes: Buffer.from(bytes), before, after });

describe('mayBeMidWrite', () => {
  it.each<[string, TimedRead, boolean]>([
    ['stable and changed long ago', read('{"a":'), false],
    ['empty, stable and changed long ago', read(''), false],
    ['size changed during the read', read('{"a":', id(5, OLD), id(9, OLD)), true],
    ['mtime changed during the read', read('{"a":', id(5, OLD), id(5, OLD + 1)), true],
    ['replaced during the read (another inode)', read('{"a":', id(5, OLD, 7), id(5, OLD, 8)), true],
    ['gone after the read', read('{"a":', id(5, OLD), null), true],
    ['fewer bytes read than its size said', read('{', id(5, OLD)), true],
    ['empty and changed just now (truncated, the write not landed yet)', read('', id(0, NOW - 5)), true],
    ['partial and changed just now', read('{"a":', id(5, NOW - 5)), true],
    ['changed just over the recent window ago', read('', id(0, NOW - SETTLE_LIMITS.recentMs)), false],
  ])('%s → %s', (_what, r, expected) => {
    expect(mayBeMidWrite(r, NOW)).toBe(expected);
  });
});

describe('readSettled', () => {
  it('reads once when the first read is settled', async () => {
    const waits: number[] = [];
    let calls = 0;
    const value = await readSettled(async () => ({ value: ++calls, settled: true }), { wait: async (ms) => void waits.push(ms) });
    expect({ value, calls, waits }).toEqual({ value: 1, calls: 1, waits: [] });
  });

  it('reads again until settled and answers the settled value', async () => {
    let calls = 0;
    const value = await readSettled(async () => ({ value: ++calls, settled: calls === 3 }), { wait: async () => {} });
    expect(value).toBe(3);
  });

  it('gives up after SETTLE_LIMITS.tries reads, with waits that add up to at most totalMs, and answers the last value', async () => {
    const waits: number[] = [];
    let calls = 0;
    const value = await readSettled(async () => ({ value: ++calls, settled: false }), { wait: async (ms) => void waits.push(ms) });
    expect(calls).toBe(SETTLE_LIMITS.tries);
    expect(value).toBe(SETTLE_LIMITS.tries);
    expect(waits).toHaveLength(SETTLE_LIMITS.tries - 1);
    expect(waits.reduce((a, b) => a + b, 0)).toBeLessThanOrEqual(SETTLE_LIMITS.totalMs);
  });

  it('starts no wait once totalMs has passed, however slow the reads were', async () => {
    let clock = 0;
    const waits: number[] = [];
    let calls = 0;
    // Each read takes 200 ms: after the second, the budget is spent.
    const value = await readSettled(
      async () => {
        clock += 200;
        return { value: ++calls, settled: false };
      },
      { now: () => clock, wait: async (ms) => void (waits.push(ms), (clock += ms)) },
    );
    expect(calls).toBe(2);
    expect(value).toBe(2);
    expect(waits).toEqual([SETTLE_LIMITS.firstWaitMs]);
  });

  it('waits without blocking the event loop', async () => {
    let ticks = 0;
    const timer = setInterval(() => ticks++, 1);
    try {
      await readSettled(async () => ({ value: 0, settled: false }));
    } finally {
      clearInterval(timer);
    }
    expect(ticks).toBeGreaterThan(0);
  });
});
