// The JSON head of the usage disk cache (disk-cache.ts): what it holds and how it is checked.
import { isCount, isRecord, isStringArray } from '../../infra/json-checks.js';

/** Whose logs a cache describes: a cache of other directories is not used. */
export interface CacheIdentity {
  agentDir: string;
  instancesDir: string;
}

/**
 * path, size, mtimeMs, ino, offset, fingerprint, malformed, tailMalformed, records, tail records,
 * string table, oversized lines (absent in caches written before it was counted: 0), the key of
 * the flags an agent file was read with (agent-flags.ts; absent: '', none).
 */
export type FileRow = [string, number, number, number, number, string, number, number, number, number, string[], number?, string?];

export interface CacheHead {
  sources: CacheIdentity;
  prices: string;
  lastFetch: number;
  /** null: no baseline yet (a cache only the terminal wrote); the app's next scan sets one quietly. */
  seenAnomalies: string[] | null;
  count: number;
  /** How the keys are stored: UTF-8, or UTF-16 when a key holds a lone surrogate UTF-8 cannot carry. */
  keys: KeyEncoding;
  files: FileRow[];
}

export type KeyEncoding = 'utf8' | 'utf16le';

/** Hand checks rather than a schema: thousands of rows, checked on every start. */
export function checkHead(h: unknown): CacheHead | null {
  if (!isRecord(h) || !isRecord(h.sources)) return null;
  const { sources, prices, lastFetch, seenAnomalies, count, keys, files } = h;
  if (typeof sources.agentDir !== 'string' || typeof sources.instancesDir !== 'string' || typeof prices !== 'string') return null;
  if (keys !== 'utf8' && keys !== 'utf16le') return null;
  if (!isCount(lastFetch) || !(seenAnomalies === null || isStringArray(seenAnomalies)) || !isCount(count) || !Array.isArray(files)) return null;
  let total = 0;
  for (const row of files) {
    if (!isRow(row)) return null;
    total += row[8] + row[9];
  }
  return total === count ? (h as unknown as CacheHead) : null;
}

function isRow(row: unknown): row is FileRow {
  return (
    Array.isArray(row) &&
    (row.length === 11 || (row.length >= 12 && row.length <= 13 && isCount(row[11]))) &&
    (row.length < 13 || typeof row[12] === 'string') &&
    typeof row[0] === 'string' &&
    [row[1], row[2], row[3], row[4]].every(Number.isFinite) &&
    typeof row[5] === 'string' &&
    [row[6], row[7], row[8], row[9]].every(isCount) &&
    isStringArray(row[10])
  );
}
