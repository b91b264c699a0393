import fs from 'node:fs/promises';
import { crc32 } from 'node:zlib';
import { writeFileAtomic } from '../../infra/atomic-write.js';
import { decodeBinaryFile, encodeBinaryPieces } from '../../infra/binary-file.js';
import { identityOf, isNotFound, type FileIdentity } from '../../infra/file-stat.js';
import { CACHE_KIND, checkHead, type CacheHead, type CacheIdentity } from './cache-head.js';
import { planCache, type CacheSnapshot, type RestoredSnapshot } from './cache-plan.js';
import { batchAt, batchRecords, batchSize } from './packed-batch.js';
import { RecordReader } from './record-pack.js';
import type { UsageRecord } from './types.js';
import type { FileState } from './usage-store.js';

export type { CacheIdentity, CacheSnapshot, RestoredSnapshot };
export { SMALL_SEGMENT } from './cache-plan.js';

/** The whole file in one buffer (tests; the app writes the pieces). */
export function serializeCache(snapshot: CacheSnapshot, identity: CacheIdentity, pricesId: string): Buffer {
  return Buffer.concat(planCache(snapshot, identity, pricesId).pieces);
}

/** The file around a head and its data (exported for tests that damage a head; the data keep their own checksums). */
export function encodeCacheFile(head: unknown, sections: readonly Uint8Array[]): Buffer {
  return Buffer.concat(encodeBinaryPieces(CACHE_KIND, head, sections, 'head'));
}

/** The parsed head and the bytes after it; null when not an intact head of this version (the data are checked by parseCache). */
export function decodeCacheFile(bytes: Buffer): { head: unknown; data: Buffer } | null {
  return decodeBinaryFile(bytes, CACHE_KIND, 'head');
}

/** null for anything unusable (damaged, another format, other sources): the next scan rebuilds it. */
export function parseCache(bytes: Buffer, identity: CacheIdentity, pricesId: string): RestoredSnapshot | null {
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
function restoreFiles(head: CacheHead, data: Buffer, samePrices: boolean): RestoredSnapshot {
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
  for (const [path, size, mtimeMs, ino, offset, fingerprint, malformed, tailMalformed, oversized, segment, first, recordCount, tailCount, flagsKey = ''] of head.files) {
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
    const packed = samePrices ? { batch, first, records: recordCount, tail: tailCount, lists: [records, tail] as const } : undefined;
    files.push({ path, size, mtimeMs, ino, offset, fingerprint, records, tail, malformed, tailMalformed, oversized, flagsKey, packed });
    kept.push(mine);
  }
  return { lastFetch: head.lastFetch, files, kept: samePrices ? kept : null, seenAnomalies: head.seenAnomalies };
}

/** A cache read: the snapshot (null when unusable) and the file it came from, as read through the open handle. */
export interface CacheRead {
  snapshot: RestoredSnapshot | null;
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
 * next write takes their bytes as they are too. The plan is made on this thread, before this
 * returns; `onWriting` is called once the bytes are handed to the thread pool (or the write failed
 * before that), after which the write needs this thread only to end (fsync, rename).
 */
export function writeCacheFile(file: string, snapshot: CacheSnapshot, identity: CacheIdentity, pricesId: string, onWriting?: () => void): Promise<FileIdentity> {
  const { pieces, fresh } = planCache(snapshot, identity, pricesId);
  for (const [f, run] of fresh) f.packed = run;
  // Not durable: the cache is rebuilt from the logs, and every byte of it is checked when read (a
  // torn file after a crash is unusable, so the next start scans again); 214 MB at 1 GiB of logs
  // took a cold CLI run ~0.2 s longer to fsync before it could exit.
  return writeFileAtomic(file, pieces, { mode: 0o600, onWriting, durable: false });
}
