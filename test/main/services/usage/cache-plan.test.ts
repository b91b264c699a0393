import { describe, expect, it } from 'vitest';
import { setBits } from '../../../../main/services/usage/cache-plan.js';
import { parseCache, serializeCache, type CacheSnapshot } from '../../../../main/services/usage/disk-cache.js';
import type { UsageRecord } from '../../../../main/services/usage/types.js';
import type { FileState } from '../../../../main/services/usage/usage-store.js';
import { usageRecord } from '../../../fixtures/usage/lines.js';

const identity = { agentDir: '/a', instancesDir: '/c/instances' };

function stateOf(file: string, n: number, tail = 0): FileState {
  const records = (count: number, from: number): UsageRecord[] =>
    Array.from({ length: count }, (_, i) => usageRecord({ key: `${file}-${from + i}`, file, offset: (from + i) * 100, inputTokens: from + i, cost: 0.001 * i }));
  return { path: file, size: 100, mtimeMs: 1, ino: 1, offset: 90, fingerprint: 'fp', records: records(n, 0), tail: records(tail, n), malformed: 0, tailMalformed: 0, oversized: 0, flagsKey: '' };
}

describe('the kept bitmap of a disk cache write', () => {
  it('sets a run of bits as one bit at a time would, at every start and length across byte edges', () => {
    for (let from = 0; from < 20; from++) {
      for (let count = 0; count < 30; count++) {
        const fast = new Uint8Array(8);
        const slow = new Uint8Array(8);
        fast[0] = 0b0100_0000; // bits set before stay set
        slow[0] = 0b0100_0000;
        setBits(fast, from, count);
        for (let b = from; b < from + count; b++) slow[b >> 3]! |= 1 << (b & 7);
        expect([...fast], `from ${from}, ${count} bits`).toEqual([...slow]);
      }
    }
  });

  it('is the same for files that keep all their records (their own array) as for a copy of the same list', () => {
    // lengths that start and end mid-byte, an empty file, a file with a tail, one keeping some
    const files = [stateOf('/a/1', 3), stateOf('/a/2', 13), stateOf('/a/3', 0), stateOf('/a/4', 9, 2), stateOf('/a/5', 17), stateOf('/a/6', 1)];
    const shared: UsageRecord[][] = files.map((f, i) => (i === 3 ? [...f.records, ...f.tail] : i === 4 ? f.records.filter((_, k) => k % 4 !== 1) : f.records));
    const copied = shared.map((l) => l.slice());
    const snap = (kept: UsageRecord[][]): CacheSnapshot => ({ lastFetch: 5, files, kept, seenAnomalies: [] });
    const bytes = serializeCache(snap(shared), identity, 'p1');
    expect(bytes.equals(serializeCache(snap(copied), identity, 'p1'))).toBe(true);
    const back = parseCache(bytes, identity, 'p1')!;
    expect(back.kept!.map((l) => l.map((r) => r.key))).toEqual(shared.map((l) => l.map((r) => r.key)));
  });

  it('refuses kept requests out of file order, as before', () => {
    const f = stateOf('/a/1', 4);
    const snap: CacheSnapshot = { lastFetch: 5, files: [f], kept: [[f.records[2]!, f.records[1]!]], seenAnomalies: [] };
    expect(() => serializeCache(snap, identity, 'p1')).toThrow(/not in file order/);
  });
});
