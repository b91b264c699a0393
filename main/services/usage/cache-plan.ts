// Writing the usage disk cache (disk-cache.ts): which segments are written as they are, which files are packed afresh.
import { crc32 } from 'node:zlib';
import { encodeBinaryPieces } from '../../infra/binary-file.js';
import { CACHE_KIND, type CacheHead, type CacheIdentity, type FileRow, type SegmentRow } from './cache-head.js';
import { batchPieces, sealBatch, type PackedBatch, type PackedRun } from './packed-batch.js';
import { RecordPacker } from './record-pack.js';
import type { UsageRecord } from './types.js';
import type { FileState } from './usage-store.js';

/** What survives a restart: the per-file read state, its requests, and what was announced. */
export interface CacheSnapshot {
  lastFetch: number;
  files: FileState[];
  /**
   * Per file (in the order of `files`), its requests kept after de-duplication, in file order.
   * null after reading when costs must be computed again (another price table).
   */
  kept: UsageRecord[][] | null;
  /** null: no anomaly baseline set yet (usage-service.ts). */
  seenAnomalies: string[] | null;
}


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
  const { kept } = snapshot;
  if (kept === null) throw new Error('a cache is written with its kept lists');
  const reusable = reusableRuns(snapshot.files);
  const freshFiles = snapshot.files.filter((f) => !reusable.has(f));
  const fresh = freshFiles.length > 0 ? packFresh(freshFiles) : [];
  const freshRun = new Map(fresh);
  const batches: PackedBatch[] = [];
  const segmentOf = new Map<PackedBatch, number>();
  const runs = snapshot.files.map((f) => {
    const run = reusable.get(f) ?? freshRun.get(f)!;
    if (!segmentOf.has(run.batch)) segmentOf.set(run.batch, batches.push(run.batch) - 1);
    return run;
  });
  const bases: number[] = [];
  let total = 0;
  for (const b of batches) {
    bases.push(total);
    total += b.count;
  }
  const bitmap = new Uint8Array(Math.ceil(total / 8));
  const files = snapshot.files.map((f, i): FileRow => {
    const run = runs[i]!;
    const segment = segmentOf.get(run.batch)!;
    markKept(bitmap, bases[segment]! + run.first, f, kept[i]!);
    const row: FileRow = [f.path, f.size, f.mtimeMs, f.ino, f.offset, f.fingerprint, f.malformed, f.tailMalformed, f.oversized, segment, run.first, run.records, run.tail];
    if (f.flagsKey) row.push(f.flagsKey); // agent files read with flags only: the head stays as small for the rest
    return row;
  });
  const segments = batches.map((b): SegmentRow => [b.count, b.keyBytes.length, b.keys, b.crc, b.strings]);
  const head: CacheHead = { sources: identity, prices: pricesId, lastFetch: snapshot.lastFetch, seenAnomalies: snapshot.seenAnomalies, segments, kept: crc32(bitmap), files };
  return { pieces: encodeBinaryPieces(CACHE_KIND, head, [...batches.flatMap(batchPieces), bitmap], 'head'), fresh };
}

/** The files whose packed run is written as it is (see MIN_LIVE_SHARE). */
function reusableRuns(files: readonly FileState[]): Map<FileState, PackedRun> {
  const live = new Map<PackedBatch, number>();
  const runs = new Map<FileState, PackedRun>();
  for (const f of files) {
    const run = f.packed;
    // A file without records needs no segment of its own: it goes with the fresh ones.
    if (run === undefined || run.records + run.tail === 0 || run.lists[0] !== f.records || run.lists[1] !== f.tail) continue;
    live.set(run.batch, (live.get(run.batch) ?? 0) + run.records + run.tail);
    runs.set(f, run);
  }
  for (const [f, run] of runs) {
    const { count } = run.batch;
    if (count < SMALL_SEGMENT || live.get(run.batch)! < count * MIN_LIVE_SHARE) runs.delete(f);
  }
  return runs;
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
  const batch = sealBatch({ count: packer.size, numbers: packer.numbers, refs: packer.refs, keyLengths: packer.keyLengths, keyText: packer.keyText(), strings: packer.takeStrings() });
  return files.map((f, i) => [f, { batch, ...placed[i]!, lists: [f.records, f.tail] as const }]);
}

/** Sets the bits of the file's kept records (a subsequence of records, then tail) from bit `at`. */
function markKept(bitmap: Uint8Array, at: number, f: FileState, kept: readonly UsageRecord[]): void {
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
