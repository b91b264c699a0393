import { describe, expect, it } from 'vitest';
import { cooldownMs, KeyPool } from '../../../../../main/engines/proxy-engine/traffic/key-pool.js';

describe('KeyPool', () => {
  it('hands out keys round-robin, one step per request', () => {
    const pool = new KeyPool(['a', 'b', 'c']);
    expect([pool.freeSlots(0), pool.freeSlots(0), pool.freeSlots(0), pool.freeSlots(0)]).toEqual([
      [0, 1, 2],
      [1, 2, 0],
      [2, 0, 1],
      [0, 1, 2],
    ]);
  });

  it('skips a cooling key until its cooldown ends', () => {
    const pool = new KeyPool(['a', 'b']);
    pool.coolDown(0, 1000, 30_000);
    expect(pool.freeSlots(1000)).toEqual([1]);
    expect(pool.freeSlots(30_999)).toEqual([1]);
    expect(pool.freeSlots(31_000)).toEqual([0, 1]);
  });

  it('reports the key that frees soonest when all cool', () => {
    const pool = new KeyPool(['a', 'b', 'c']);
    pool.coolDown(0, 0, 50);
    pool.coolDown(1, 0, 10);
    pool.coolDown(2, 0, 30);
    expect(pool.freeSlots(5)).toEqual([]);
    expect(pool.soonest()).toEqual({ slot: 1, until: 10 });
  });

  it('a keyless upstream has one slot with no key', () => {
    const pool = new KeyPool([]);
    expect(pool.freeSlots(0)).toEqual([0]);
    expect(pool.key(0)).toBeUndefined();
  });

  it('a shorter second cooldown does not shorten the first', () => {
    const pool = new KeyPool(['a']);
    pool.coolDown(0, 0, 60_000);
    pool.coolDown(0, 0, 1_000);
    expect(pool.isCooling(0, 59_999)).toBe(true);
  });
});

describe('cooldownMs', () => {
  const now = Date.UTC(2026, 0, 1);
  it.each([
    [undefined, 30_000],
    ['5', 30_000],
    ['120', 120_000],
    ['99999', 600_000],
    [new Date(now + 90_000).toUTCString(), 90_000],
    ['soon', 30_000],
  ])('Retry-After %s → %d ms', (header, expected) => {
    expect(cooldownMs(30, header, now)).toBe(expected);
  });
});
