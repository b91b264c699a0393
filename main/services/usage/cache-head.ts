// The JSON head of the usage disk cache (disk-cache.ts): what it holds and how it is checked.
import { isCount, isRecord, isStringArray } from '../../infra/json-checks.js';
import { USAGE_CACHE_VERSION } from './cache-version.js';
import type { KeyEncoding } from './packed-batch.js';

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
export const CACHE_KIND = { magic: 'SWBUSAGE', version: USAGE_CACHE_VERSION };

/** Whose logs a cache describes: a cache of other directories is not used. */
export interface CacheIdentity {
  agentDir: string;
  instancesDir: string;
}

/**
 * path, size, mtimeMs, ino, offset, fingerprint, malformed, tailMalformed, oversized lines,
 * segment (index into `segments`), first record in it, records, tail records, and the key of the
 * flags an agent file was read with (agent-flags.ts; absent: '', none).
 */
export type FileRow = [string, number, number, number, number, string, number, number, number, number, number, number, number, string?];

/** One packed batch as written: records, bytes of keys, their encoding, CRC-32 of its bytes, string table. */
export type SegmentRow = [number, number, KeyEncoding, number, string[]];

export interface CacheHead {
  sources: CacheIdentity;
  prices: string;
  lastFetch: number;
  /** null: no baseline yet (a cache only the terminal wrote); the app's next scan sets one quietly. */
  seenAnomalies: string[] | null;
  segments: SegmentRow[];
  /** CRC-32 of the kept bitmap that follows the segments. */
  kept: number;
  files: FileRow[];
}

/** Hand checks rather than a schema: thousands of rows, checked on every start. */
export function checkHead(h: unknown): CacheHead | null {
  if (!isRecord(h) || !isRecord(h.sources)) return null;
  const { sources, prices, lastFetch, seenAnomalies, segments, kept, files } = h;
  if (typeof sources.agentDir !== 'string' || typeof sources.instancesDir !== 'string' || typeof prices !== 'string') return null;
  if (!isCount(lastFetch) || !(seenAnomalies === null || isStringArray(seenAnomalies)) || !isCount(kept) || !Array.isArray(segments) || !Array.isArray(files)) return null;
  if (!segments.every(isSegment)) return null;
  for (const row of files) {
    if (!isRow(row)) return null;
    const segment = segments[row[9]] as SegmentRow | undefined;
    if (segment === undefined || row[10] + row[11] + row[12] > segment[0]) return null;
  }
  return h as unknown as CacheHead;
}

function isSegment(row: unknown): row is SegmentRow {
  return (
    Array.isArray(row) &&
    row.length === 5 &&
    isCount(row[0]) &&
    isCount(row[1]) &&
    (row[2] === 'utf8' || row[2] === 'utf16le') &&
    isCount(row[3]) &&
    isStringArray(row[4])
  );
}

function isRow(row: unknown): row is FileRow {
  return (
    Array.isArray(row) &&
    (row.length === 13 || (row.length === 14 && typeof row[13] === 'string')) &&
    typeof row[0] === 'string' &&
    [row[1], row[2], row[3], row[4]].every(Number.isFinite) &&
    typeof row[5] === 'string' &&
    [row[6], row[7], row[8], row[9], row[10], row[11], row[12]].every(isCount)
  );
}
