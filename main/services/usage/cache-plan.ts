// Writing the usage disk cache (disk-cache.ts): which segments are written as they are, which files are packed afresh.
import { crc32 } from 'node:zlib';
import { encodeBinaryPieces } from '../../infra/binary-file.js';
import { CACHE_KIND, type CacheHead, type CacheIdentity, type FileRow, type SegmentRow } from './cache-head.js';
import { batchPieces, sealBatch, type PackedBatch, type PackedRun } from './packed-batch.js';
import { RecordPacker } from './record-pack.js';
import { PackedRead, type KeptList } from './packed-read.js';
import type { UsageRecord } from './types.js';
import type { FileState } from './usage-store.js';

/**
 * What survives a restart: the per-file read state, its requests, and what was announced. A cache
 * read gives the kept lists as arrays (RestoredSnapshot); a write takes the store's (KeptList).
 */
export interface CacheSnapshot<K extends KeptList = KeptList> {
  lastFetch: number;
  files: FileState[];
  /**
   * Per file (in the order of `files`), its requests kept after de-duplication, in file order.
   * null after reading when costs must be computed again (another price table).
   */
  kept: readonly K[] | null;
  /** null: no anomaly baseline set yet (usage-service.ts). */
  seenAnomalies: string[] | null;
}

export type RestoredSnapshot = CacheSnapshot<UsageRecord[]>;

/**
 * A segment is written again as it is while at least half of its records are live (still the
 * records of a file that uses it) and it holds at least SMALL_SEGMENT records; otherwise its live
 * files are packed afresh into the write's new segment, with the files whose records changed. So
 * dead records never make up more than half of a segment, and small segments (one refresh's
 * files, small worker batches) merge instead of piling up.
 */
const MIN_LIVE_SHARE = 0.5;
export const SMALL_SEGMENT = 32;

/** The file's pieces in order, and the runs of the files packed afresh for it (theirs to keep). */
export interface CachePlan {
  pieces: Uint8Array[];
  fresh: Array<[FileState, PackedRun]>;
}

export function planCache(snapshot: CacheSnapshot, identity: CacheIdentity, pricesId: string): CachePlan {
  const { kept, files } = snapshot;
  if (kept === null) throw new Error('a cache is written with its kept lists');
  const runs = reusableRuns(files);
  const freshFiles = files.filter((_, i) => runs[i] === undefined);
  const fresh = freshFiles.length > 0 ? packFresh(freshFiles) : [];
  for (let i = 0, k = 0; i < runs.length; i++) if (runs[i] === undefined) runs[i] = fresh[k++]![1];
  const batches: PackedBatch[] = [];
  const segmentOf = new Map<PackedBatch, number>();
  // Per file, its run's segment: neighbours in path order mostly share a batch (a worker reads runs of them).
  const segments = new Int32Array(files.length);
  let lastBatch: PackedBatch | null = null;
  let lastSegment = -1;
  for (let i = 0; i < runs.length; i++) {
    const { batch } = runs[i]!;
    if (batch !== lastBatch) {
      let segment = segmentOf.get(batch);
      if (segment === undefined) segmentOf.set(batch, (segment = batches.push(batch) - 1));
      [lastBatch, lastSegment] = [batch, segment];
    }
    segments[i] = lastSegment;
  }
  const bases: number[] = [];
  let total = 0;
  for (const b of batches) {
    bases.push(total);
    total += b.count;
  }
  const bitmap = new Uint8Array(Math.ceil(total / 8));
  const rows = files.map((f, i): FileRow => {
    const run = runs[i]!;
    const segment = segments[i]!;
    markKept(bitmap, bases[segment]! + run.first, f, kept[i]!);
    const row: FileRow = [f.path, f.size, f.mtimeMs, f.ino, f.offset, f.fingerprint, f.malformed, f.tailMalformed, f.oversized, segment, run.first, run.records, run.tail];
    if (f.flagsKey) row.push(f.flagsKey); // agent files read with flags only: the head stays as small for the rest
    return row;
  });
  const segmentRows = batches.map((b): SegmentRow => [b.count, b.keyBytes.length, b.keys, b.crc, b.strings]);
  const head: CacheHead = { sources: identity, prices: pricesId, lastFetch: snapshot.lastFetch, seenAnomalies: snapshot.seenAnomalies, segments: segmentRows, kept: crc32(bitmap), files: rows };
  return { pieces: encodeBinaryPieces(CACHE_KIND, head, [...batches.flatMap(batchPieces), bitmap], 'head'), fresh };
}

/** Per file (in the order of `files`), its packed run when it is written as it is (see MIN_LIVE_SHARE). */
function reusableRuns(files: readonly FileState[]): Array<PackedRun | undefined> {
  const live = new Map<PackedBatch, number>();
  const runs: Array<PackedRun | undefined> = new Array(files.length).fill(undefined); // packed: filled, not holey
  // Live records are counted per stretch of neighbours in one batch, and added to its count once per stretch.
  let batch: PackedBatch | null = null;
  let stretch = 0;
  const flush = () => {
    if (batch !== null) live.set(batch, (live.get(batch) ?? 0) + stretch);
  };
  for (let i = 0; i < files.length; i++) {
    const f = files[i]!;
    const run = f.packed;
    // A file without records needs no segment of its own: it goes with the fresh ones.
    if (run === undefined || run.records + run.tail === 0 || !holds(f, run)) continue;
    if (run.batch !== batch) {
      flush();
      [batch, stretch] = [run.batch, 0];
    }
    stretch += run.records + run.tail;
    runs[i] = run;
  }
  flush();
  batch = null;
  let reused = false;
  for (let i = 0; i < runs.length; i++) {
    const run = runs[i];
    if (run === undefined) continue;
    if (run.batch !== batch) {
      batch = run.batch;
      reused = batch.count >= SMALL_SEGMENT && live.get(batch)! >= batch.count * MIN_LIVE_SHARE;
    }
    if (!reused) runs[i] = undefined;
  }
  return runs;
}

/** Whether the file's records are still the ones packed in `run` (a PackedRead's run is dropped when they are not). */
function holds(f: FileState, run: PackedRun): boolean {
  if (run.lists === undefined) return f instanceof PackedRead && f.packed === run;
  return run.lists[0] === f.records && run.lists[1] === f.tail;
}

/** Packs the files' records, then tails, into one new batch (sealed here, on this thread). */
function packFresh(files: readonly FileState[]): Array<[FileState, PackedRun]> {
  const packer = new RecordPacker(files.reduce((n, f) => n + f.records.length + f.tail.length, 0));
  const placed = files.map((f) => {
    const first = packer.size;
    for (const r of f.records) packer.add(r);
    for (const r of f.tail) packer.add(r);
    return { first, records: f.records.length, tail: f.tail.length };
  });
  const batch = sealBatch(packer.take());
  return files.map((f, i) => [f, { batch, ...placed[i]!, lists: [f.records, f.tail] as const }]);
}

/** Sets the bits of the file's kept records (a subsequence of records, then tail) from bit `at`. */
function markKept(bitmap: Uint8Array, at: number, f: FileState, list: KeptList): void {
  if (list instanceof PackedRead) {
    if (list !== f) throw new Error(`kept requests of ${f.path} are another file's`);
    return setBits(bitmap, at, list.count); // keeps them all, only packed
  }
  const kept = list;
  if (kept === f.records && f.tail.length === 0) return setBits(bitmap, at, kept.length); // keeps them all: most files
  let next = 0;
  let bit = at;
  for (const list of [f.records, f.tail]) {
    for (const r of list) {
      if (kept[next] === r) {
        bitmap[bit >> 3]! |= 1 << (bit & 7);
        next++;
      }
      bit++;
    }
  }
  if (next !== kept.length) throw new Error(`kept requests of ${f.path} are not in file order`);
}

/** Sets bits `from` to `from + count - 1`: whole bytes at once in between. */
export function setBits(bitmap: Uint8Array, from: number, count: number): void {
  const end = from + count;
  let bit = from;
  for (; bit < end && (bit & 7) !== 0; bit++) bitmap[bit >> 3]! |= 1 << (bit & 7);
  const wholeEnd = end & ~7;
  if (bit < wholeEnd) {
    bitmap.fill(0xff, bit >> 3, wholeEnd >> 3);
    bit = wholeEnd;
  }
  for (; bit < end; bit++) bitmap[bit >> 3]! |= 1 << (bit & 7);
}
