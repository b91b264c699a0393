import type { FileRead } from './scan-file.js';
import type { UsageRecord } from './types.js';

/**
 * What a scan worker found per file, without the records (they travel packed beside it): the
 * numbers in one transferable array, READ_NUM per file, beside the paths and fingerprints. An
 * object per file cost the structured clone a dozen property names each (OpenCode: 122k files).
 */
export interface PackedReads {
  /** READ_NUM per read: size, mtimeMs, ino, start, offset, malformed, tailMalformed, oversized, records, tail records, dev, nlink. */
  numbers: Float64Array;
  paths: string[];
  fingerprints: string[];
}

export const READ_NUM = 12;

export function packReads(reads: readonly FileRead[]): PackedReads {
  const numbers = new Float64Array(reads.length * READ_NUM);
  const paths: string[] = [];
  const fingerprints: string[] = [];
  reads.forEach((r, i) => {
    const n = i * READ_NUM;
    numbers[n] = r.size;
    numbers[n + 1] = r.mtimeMs;
    numbers[n + 2] = r.ino;
    numbers[n + 3] = r.start;
    numbers[n + 4] = r.offset;
    numbers[n + 5] = r.malformed;
    numbers[n + 6] = r.tailMalformed;
    numbers[n + 7] = r.oversized;
    numbers[n + 8] = r.records.length;
    numbers[n + 9] = r.tail.length;
    numbers[n + 10] = r.dev;
    numbers[n + 11] = r.nlink;
    paths.push(r.path);
    fingerprints.push(r.fingerprint);
  });
  return { numbers, paths, fingerprints };
}

/** The bytes the packed reads read (size less start, summed). */
export function bytesRead(p: PackedReads): number {
  let sum = 0;
  for (let n = 0; n < p.numbers.length; n += READ_NUM) sum += p.numbers[n]! - p.numbers[n + 3]!;
  return sum;
}

/** The reads again, each with its run of `records` (records first, then its tail, read after read). */
export function unpackReads(p: PackedReads, records: readonly UsageRecord[]): FileRead[] {
  if (p.numbers.length !== p.paths.length * READ_NUM || p.fingerprints.length !== p.paths.length) throw new Error('packed reads do not fit together');
  const reads: FileRead[] = [];
  let at = 0;
  for (let i = 0; i < p.paths.length; i++) {
    const n = i * READ_NUM;
    const recordCount = p.numbers[n + 8]!;
    const tailCount = p.numbers[n + 9]!;
    reads.push({
      path: p.paths[i]!,
      size: p.numbers[n]!,
      mtimeMs: p.numbers[n + 1]!,
      ino: p.numbers[n + 2]!,
      start: p.numbers[n + 3]!,
      offset: p.numbers[n + 4]!,
      malformed: p.numbers[n + 5]!,
      tailMalformed: p.numbers[n + 6]!,
      oversized: p.numbers[n + 7]!,
      dev: p.numbers[n + 10]!,
      nlink: p.numbers[n + 11]!,
      fingerprint: p.fingerprints[i]!,
      records: records.slice(at, at + recordCount),
      tail: records.slice(at + recordCount, at + recordCount + tailCount),
    });
    at += recordCount + tailCount;
  }
  if (at !== records.length) throw new Error('packed reads do not fit their records');
  return reads;
}
