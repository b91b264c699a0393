import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { decodeCacheFile, parseCache, readCacheFile, serializeCache, SMALL_SEGMENT, writeCacheFile, type CacheSnapshot } from '../../../../main/services/usage/disk-cache.js';
import { batchSize } from '../../../../main/services/usage/packed-batch.js';
import { Pricing } from '../../../../main/services/usage/pricing.js';
import { RecordPacker } from '../../../../main/services/usage/record-pack.js';
import { ScanPool } from '../../../../main/services/usage/scan-pool.js';
import { packReply } from '../../../../main/services/usage/scan-worker.js';
import type { UsageRecord } from '../../../../main/services/usage/types.js';
import { UsageStore, type FileState } from '../../../../main/services/usage/usage-store.js';
import { assistantLine, usageRecord } from '../../../fixtures/usage/lines.js';

const identity = { agentDir: '/a', instancesDir: '/c/instances' };

function recordsOf(file: string, n: number, cost = 0.001): UsageRecord[] {
  return Array.from({ length: n }, (_, i) => usageRecord({ key: `m${i}\u0000r`, file, offset: i * 100, inputTokens: i, cost: cost * (i % 7), sessionId: `s${i % 3}` }));
}

function stateOf(file: string, records: UsageRecord[], tail: UsageRecord[] = []): FileState {
  return { path: file, size: 100, mtimeMs: 1, ino: 1, offset: 90, fingerprint: 'fp', records, tail, malformed: 0, tailMalformed: 0, oversized: 0, flagsKey: '' };
}

/** The files packed into one batch by the scan worker's own packReply, each given its run as scan-pool's collect does. */
function packedByWorker(states: FileState[]): void {
  const reads = states.map(({ packed: _run, ...s }) => ({ ...s, start: 0, dev: 1, nlink: 1 }));
  const { packed: batch } = packReply(1, reads, [], []);
  let first = 0;
  for (const s of states) {
    s.packed = { batch, first, records: s.records.length, tail: s.tail.length, lists: [s.records, s.tail] };
    first += s.records.length + s.tail.length;
  }
}

/** Every third record dropped, as de-duplication would: the kept flags must survive without a re-pack. */
const keptOf = (s: FileState) => [...s.records, ...s.tail].filter((_, i) => i % 3 !== 1);
const snapshotOf = (files: FileState[]): CacheSnapshot => ({ lastFetch: 5, files, kept: files.map(keptOf), seenAnomalies: [] });
const plain = (files: FileState[]) => files.map(({ packed: _run, ...f }) => f);
const segmentCounts = (bytes: Buffer) => (decodeCacheFile(bytes)!.head as { segments: number[][] }).segments.map((s) => s[0]);

/** Two files a worker packed together (5000 records, a segment written as it is) and one of a small batch. */
function fixture() {
  const a = stateOf('/a/p/a.jsonl', recordsOf('/a/p/a.jsonl', 3000));
  const b = stateOf('/a/p/b.jsonl', recordsOf('/a/p/b.jsonl', 1999), recordsOf('/a/p/b.jsonl', 1));
  const c = stateOf('/a/p/c.jsonl', recordsOf('/a/p/c.jsonl', 11)); // odd: its key lengths are padded
  packedByWorker([a, b]);
  packedByWorker([c]);
  return { a, b, c };
}

let adds: ReturnType<typeof vi.spyOn>;
beforeEach(() => {
  adds = vi.spyOn(RecordPacker.prototype, 'add');
});
afterEach(() => {
  adds.mockRestore();
});

/** RecordPacker.add calls on this thread while `f` runs. */
function packsDuring<T>(f: () => T): { result: T; packed: number } {
  adds.mockClear();
  const result = f();
  return { result, packed: adds.mock.calls.length };
}

describe('a segmented disk cache', () => {
  it('writes the batches the workers packed without packing their records again; only a small batch is packed afresh', () => {
    const { a, b, c } = fixture();
    expect(5000).toBeGreaterThanOrEqual(SMALL_SEGMENT);
    const { result: bytes, packed } = packsDuring(() => serializeCache(snapshotOf([a, b, c]), identity, 'p'));
    expect(packed).toBe(11); // c's, merged into the write's own segment
    expect(segmentCounts(bytes)).toEqual([5000, 11]);
    const back = parseCache(bytes, identity, 'p')!;
    expect(plain(back.files)).toEqual(plain([a, b, c]));
    expect(back.kept).toEqual([a, b, c].map(keptOf));
    expect(back.kept![1]![0]).toBe(back.files[1]!.records[0]); // the very records of the files
  });

  it('writes a restored cache again as it was read: nothing packed, the same bytes', () => {
    const { a, b } = fixture();
    const first = serializeCache(snapshotOf([a, b]), identity, 'p');
    const back = parseCache(first, identity, 'p')!;
    expect(back.files.map((f) => f.packed?.first)).toEqual([0, 3000]);
    const { result: again, packed } = packsDuring(() => serializeCache({ ...back, kept: back.kept }, identity, 'p'));
    expect(packed).toBe(0);
    expect(again.equals(first)).toBe(true);
  });

  it('packs a file changed after a restore into a new segment; the others keep theirs, dead records and all', () => {
    const { a, b } = fixture();
    const back = parseCache(serializeCache(snapshotOf([a, b]), identity, 'p'), identity, 'p')!;
    const changed = stateOf(b.path, recordsOf(b.path, 40, 0.5)); // read whole again: other records, no run
    const files = [back.files[0]!, changed];
    const { result: bytes, packed } = packsDuring(() => serializeCache(snapshotOf(files), identity, 'p'));
    expect(packed).toBe(40);
    expect(segmentCounts(bytes)).toEqual([5000, 40]); // 3000 of 5000 still live: written as it is
    const again = parseCache(bytes, identity, 'p')!;
    expect(plain(again.files)).toEqual(plain(files));
    expect(again.kept).toEqual(files.map(keptOf));
  });

  it('keeps a segment whose removed files are under half of it, and packs again the files of one that is mostly dead', () => {
    const { a, b } = fixture();
    const first = serializeCache(snapshotOf([a, b]), identity, 'p');
    const back = parseCache(first, identity, 'p')!;
    const [restoredA, restoredB] = back.files as [FileState, FileState];

    const withoutB = packsDuring(() => serializeCache(snapshotOf([restoredA]), identity, 'p'));
    expect(withoutB.packed).toBe(0); // 2000 dead of 5000
    expect(segmentCounts(withoutB.result)).toEqual([5000]);

    const withoutA = packsDuring(() => serializeCache(snapshotOf([restoredB]), identity, 'p'));
    expect(withoutA.packed).toBe(2000); // 3000 dead of 5000: b packed again, the old segment dropped
    expect(segmentCounts(withoutA.result)).toEqual([2000]);
    expect(withoutA.result.length).toBeLessThan(first.length / 2);
    const again = parseCache(withoutA.result, identity, 'p')!;
    expect(plain(again.files)).toEqual(plain([b]));
    expect(again.kept).toEqual([keptOf(b)]);
  });

  it('never writes a run for records other than those it was made with, even as many of them', () => {
    const { a, b } = fixture();
    const back = parseCache(serializeCache(snapshotOf([a, b]), identity, 'p'), identity, 'p')!;
    // A copy of the restored file (its run spread along) with other records of the same count.
    const copy: FileState = { ...back.files[0]!, records: recordsOf(a.path, 3000, 0.25) };
    const { result: bytes, packed } = packsDuring(() => serializeCache(snapshotOf([copy, back.files[1]!]), identity, 'p'));
    expect(packed).toBe(5000); // the copy afresh, and b with it: 2000 live of 5000 is under half
    expect(plain(parseCache(bytes, identity, 'p')!.files)).toEqual(plain([copy, back.files[1]!]));
  });

  it('after a price-table change packs every file afresh with the new costs, never the old bytes', () => {
    const { a, b } = fixture();
    const back = parseCache(serializeCache(snapshotOf([a, b]), identity, 'prices-1'), identity, 'prices-2')!;
    expect(back.kept).toBeNull();
    for (const f of back.files) for (const r of [...f.records, ...f.tail]) r.cost = 9; // priced again (UsageStore.restore)
    const { result: bytes, packed } = packsDuring(() => serializeCache(snapshotOf(back.files), identity, 'prices-2'));
    expect(packed).toBe(5000);
    const again = parseCache(bytes, identity, 'prices-2')!;
    expect(again.files.flatMap((f) => [...f.records, ...f.tail]).every((r) => r.cost === 9)).toBe(true);
  });

  it('is unusable with any byte damaged, in any segment, its padding or the kept bitmap', () => {
    const { a, b, c } = fixture();
    const bytes = serializeCache(snapshotOf([a, b, c]), identity, 'p');
    const dataAt = bytes.length - decodeCacheFile(bytes)!.data.length;
    expect(parseCache(bytes, identity, 'p')).not.toBeNull();
    const segments = (decodeCacheFile(bytes)!.head as { segments: number[][] }).segments;
    const firstSize = batchSize(segments[0]![0]!, segments[0]![1]!);
    const at = [
      dataAt, // the first segment's first number
      dataAt + firstSize - 1, // its last byte (key bytes or their padding)
      dataAt + firstSize, // the second segment's first byte
      dataAt + firstSize + 11 * 120 + 44, // the second segment's key-length padding (11 lengths: 44 bytes, then 4 zeros)
      bytes.length - 1, // the kept bitmap
    ];
    for (let i = dataAt; i < bytes.length; i += 4099) at.push(i);
    for (const i of at) {
      const copy = Buffer.from(bytes);
      copy[i] = copy[i]! ^ 0x10;
      expect(parseCache(copy, identity, 'p'), `byte ${i}`).toBeNull();
    }
    expect(parseCache(Buffer.concat([bytes, Buffer.alloc(1)]), identity, 'p')).toBeNull();
    expect(parseCache(bytes.subarray(0, bytes.length - 1), identity, 'p')).toBeNull();
  });
});

describe('packed runs in the store', () => {
  const pricing = new Pricing();
  const read = (file: string, records: UsageRecord[], start = 0) => ({ ...stateOf(file, records), start, dev: 1, nlink: 1 });

  it('a file read whole keeps its run; an append, or a restore with other prices, ends it', () => {
    const store = new UsageStore(pricing);
    const first = read('/a/p/a.jsonl', recordsOf('/a/p/a.jsonl', 5));
    packedByWorker([first]);
    store.apply([first], []);
    expect(store.files.get(first.path)!.packed).toBe(first.packed);

    const appended = read(first.path, recordsOf(first.path, 2).map((r) => ({ ...r, key: `${r.key}x`, offset: 1000 + r.offset })), 90);
    packedByWorker([appended]);
    store.apply([appended], []);
    expect(store.files.get(first.path)!.records).toHaveLength(7);
    expect(store.files.get(first.path)!.packed).toBeUndefined();

    const restored = stateOf(first.path, recordsOf(first.path, 5));
    packedByWorker([restored]);
    store.restore([restored], null);
    expect(restored.packed).toBeUndefined();
  });
});

describe('the scan workers and the cache file', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await fs.mkdtemp(path.join(os.tmpdir(), 'switchboard-segments-'));
  });
  afterEach(() => fs.rm(dir, { recursive: true, force: true }));

  it('writes what the threads read without packing it again on this thread, and reads it back', async () => {
    const files: string[] = [];
    for (const name of ['one', 'two']) {
      const file = path.join(dir, `${name}.jsonl`);
      const lines = Array.from({ length: 2600 }, (_, i) => assistantLine({ msg: `${name}-m${i}`, req: `r${i}`, input: i, ts: `2025-11-0${1 + (i % 9)}T10:00:00.000Z` }));
      await fs.writeFile(file, lines.join('\n') + '\n');
      files.push(file);
    }
    const pricing = new Pricing();
    const store = new UsageStore(pricing);
    const pool = new ScanPool(1);
    const result = await pool.read(files.map((f) => ({ path: f, start: 0, bytes: 1 })));
    expect(result.reads.map((r) => r.packed?.first)).toEqual([0, 2600]);
    store.apply(result.reads, []);
    const snapshot: CacheSnapshot = { lastFetch: 1, files: [...store.files.values()], kept: store.keptGroups(), seenAnomalies: [] };
    const target = path.join(dir, '.cache', 'usage-cache.json');
    adds.mockClear();
    await writeCacheFile(target, snapshot, identity, pricing.tableId);
    expect(adds).not.toHaveBeenCalled();
    const read = await readCacheFile(target, identity, pricing.tableId);
    if (read === 'missing' || read.snapshot === null) throw new Error('cache not usable');
    expect(plain(read.snapshot.files)).toEqual(plain(snapshot.files));
    expect(read.snapshot.kept).toEqual(snapshot.kept);
  });
});
