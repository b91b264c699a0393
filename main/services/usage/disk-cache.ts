import fs from 'node:fs/promises';
import { crc32 } from 'node:zlib';
import { writeFileAtomic } from '../../infra/atomic-write.js';
import { decodeBinaryFile, encodeBinaryPieces } from '../../infra/binary-file.js';
import { identityOf, isNotFound, type FileIdentity } from '../../infra/file-stat.js';
import { checkHead, type CacheHead, type CacheIdentity, type FileRow, type SegmentRow } from './cache-head.js';
import { USAGE_CACHE_VERSION } from './cache-version.js';
import { batchAt, batchPieces, batchRecords, batchSize, sealBatch, type PackedBatch, type PackedRun } from './packed-batch.js';
import { RecordPacker, RecordReader } from './record-pack.js';
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
  seenAnomalies: string[];
}

export type { CacheIdentity };

/**
 * The file is binary whatever its `.json` name (the name is the contract's): infra/binary-file's
 * container, whose JSON head holds the sources, price table id, lastFetch, announced anomalies,
 * one row per segment (records, key bytes, key encoding, CRC-32, string table) and one row per
 * file (its read state and its run: segment, first record, records, tail records). The data are
 * the segments end to end, each a packed batch as a scan worker made it (packed-batch.ts), then
 * a bitmap of the records kept after de-duplication (one bit per record of every segment).
 * The header's checksum covers the head; each segment's CRC-32, made where the batch was made,
 * and the bitmap's are in the head, so every byte is checked on reading and none is checksummed
 * again on writing. A segment can hold dead records (of files changed or gone since).
 */
const KIND = { magic: 'SWBUSAGE', version: USAGE_CACHE_VERSION };

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
interface CachePlan {
  pieces: Uint8Array[];
  fresh: Array<[FileState, PackedRun]>;
}

function planCache(snapshot: CacheSnapshot, identity: CacheIdentity, pricesId: string): CachePlan {
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
    return [f.path, f.size, f.mtimeMs, f.ino, f.offset, f.fingerprint, f.malformed, f.tailMalformed, f.oversized, segment, run.first, run.records, run.tail];
  });
  const segments = batches.map((b): SegmentRow => [b.count, b.keyBytes.length, b.keys, b.crc, b.strings]);
  const head: CacheHead = { sources: identity, prices: pricesId, lastFetch: snapshot.lastFetch, seenAnomalies: snapshot.seenAnomalies, segments, kept: crc32(bitmap), files };
  return { pieces: encodeBinaryPieces(KIND, head, [...batches.flatMap(batchPieces), bitmap], 'head'), fresh };
}

/** The files whose packed run is written as it is (see MIN_LIVE_SHARE). */
function reusableRuns(files: readonly FileState[]): Map<FileState, PackedRun> {
  const live = new Map<PackedBatch, number>();
  const runs = new Map<FileState, PackedRun>();
  for (const f of files) {
    const run = f.packed;
    // A file without records needs no segment of its own: it goes with the fresh ones.
    if (run === undefined || run.records + run.tail === 0 || run.records !== f.records.length || run.tail !== f.tail.length) continue;
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
  return files.map((f, i) => [f, { batch, ...placed[i]! }]);
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

/** The whole file in one buffer (tests; the app writes the pieces). */
export function serializeCache(snapshot: CacheSnapshot, identity: CacheIdentity, pricesId: string): Buffer {
  return Buffer.concat(planCache(snapshot, identity, pricesId).pieces);
}

/** The file around a head and its data (exported for tests that damage a head; the data keep their own checksums). */
export function encodeCacheFile(head: unknown, sections: readonly Uint8Array[]): Buffer {
  return Buffer.concat(encodeBinaryPieces(KIND, head, sections, 'head'));
}

/** The parsed head and the bytes after it; null when not an intact head of this version (the data are checked by parseCache). */
export function decodeCacheFile(bytes: Buffer): { head: unknown; data: Buffer } | null {
  return decodeBinaryFile(bytes, KIND, 'head');
}

/** null for anything unusable (damaged, another format, other sources): the next scan rebuilds it. */
export function parseCache(bytes: Buffer, identity: CacheIdentity, pricesId: string): CacheSnapshot | null {
  const decoded = decodeCacheFile(bytes);
  const head = decoded && checkHead(decoded.head);
  if (!decoded || !head) return null;
  if (head.sources.agentDir !== identity.agentDir || head.sources.instancesDir !== identity.instancesDir) return null;
  try {
    return restoreFiles(head, decoded.data, head.prices === pricesId);
  } catch {
    return null;
  }
}

/**
 * Checks every segment against its checksum, then builds each file's records once, straight into
 * its lists. With the same price table each file keeps its run in the segment, which is a view of
 * `data`: the buffer read stays alive while any restored file's records are unchanged.
 */
function restoreFiles(head: CacheHead, data: Buffer, samePrices: boolean): CacheSnapshot {
  // Typed array views need aligned offsets; a Buffer from a pool may start anywhere.
  if (data.byteOffset % 8 !== 0) data = Buffer.from(data);
  let at = 0;
  let total = 0;
  const bases: number[] = [];
  const batches = head.segments.map(([count, keyBytes, keys, crc, strings]) => {
    const batch = batchAt(data, at, { count, keyBytes, keys, strings, crc });
    at += batchSize(count, keyBytes);
    bases.push(total);
    total += count;
    return batch;
  });
  const bitmap = data.subarray(at);
  if (bitmap.length !== Math.ceil(total / 8) || crc32(bitmap) !== head.kept) throw new Error('kept bitmap damaged');
  const readers: Array<RecordReader | undefined> = [];
  const files: FileState[] = [];
  const kept: UsageRecord[][] = [];
  for (const [path, size, mtimeMs, ino, offset, fingerprint, malformed, tailMalformed, oversized, segment, first, recordCount, tailCount] of head.files) {
    const batch = batches[segment]!;
    const reader = (readers[segment] ??= new RecordReader(batchRecords(batch)));
    reader.seek(first);
    const { strings } = batch;
    if (recordCount + tailCount > 0) {
      // The table's copy of the path becomes `path` itself, so the check below compares pointers.
      const own = reader.refOfNext(0);
      if (strings[own] !== path) throw new Error('a record of another file');
      strings[own] = path;
    }
    const mine: UsageRecord[] = [];
    let bit = bases[segment]! + first;
    const take = (n: number): UsageRecord[] => {
      const out: UsageRecord[] = []; // pushed, not preallocated: a packed array iterates faster than a holey one
      for (let i = 0; i < n; i++, bit++) {
        const r = reader.next(strings);
        if (r.file !== path) throw new Error('a record of another file');
        out.push(r);
        if ((bitmap[bit >> 3]! & (1 << (bit & 7))) !== 0) mine.push(r);
      }
      return out;
    };
    const records = take(recordCount);
    const tail = take(tailCount);
    const packed = samePrices ? { batch, first, records: recordCount, tail: tailCount } : undefined;
    files.push({ path, size, mtimeMs, ino, offset, fingerprint, records, tail, malformed, tailMalformed, oversized, packed });
    kept.push(mine);
  }
  return { lastFetch: head.lastFetch, files, kept: samePrices ? kept : null, seenAnomalies: head.seenAnomalies };
}

/** A cache read: the snapshot (null when unusable) and the file it came from, as read through the open handle. */
export interface CacheRead {
  snapshot: CacheSnapshot | null;
  file: FileIdentity;
}

export async function readCacheFile(file: string, identity: CacheIdentity, pricesId: string): Promise<CacheRead | 'missing'> {
  let handle: fs.FileHandle;
  try {
    handle = await fs.open(file, 'r');
  } catch (err) {
    if (isNotFound(err)) return 'missing';
    throw err;
  }
  try {
    const read = identityOf(await handle.stat());
    return { snapshot: parseCache(await handle.readFile(), identity, pricesId), file: read };
  } finally {
    await handle.close();
  }
}

/**
 * Resolves with the file written (see `writeFileAtomic`): the head, then the segments' bytes as
 * they are held (no copy into one buffer). The files packed afresh keep their new runs, so the
 * next write takes their bytes as they are too.
 */
export function writeCacheFile(file: string, snapshot: CacheSnapshot, identity: CacheIdentity, pricesId: string): Promise<FileIdentity> {
  const { pieces, fresh } = planCache(snapshot, identity, pricesId);
  for (const [f, run] of fresh) f.packed = run;
  return writeFileAtomic(file, pieces, { mode: 0o600 });
}
