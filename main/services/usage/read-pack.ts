import type { FileRead } from './scan-file.js';
import { batchRecords, type PackedBatch } from './packed-batch.js';
import { PackedRead, type ReadFields } from './packed-read.js';
import { NUM, REF, RecordReader } from './record-pack.js';
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

/** Packs reads one at a time, as a worker reads them (their records are packed beside, by a RecordPacker). */
export class ReadPacker {
  private readonly numbers: number[] = [];
  private readonly paths: string[] = [];
  private readonly fingerprints: string[] = [];

  add(r: FileRead): void {
    this.numbers.push(r.size, r.mtimeMs, r.ino, r.start, r.offset, r.malformed, r.tailMalformed, r.oversized, r.records.length, r.tail.length, r.dev, r.nlink);
    this.paths.push(r.path);
    this.fingerprints.push(r.fingerprint);
  }

  take(): PackedReads {
    return { numbers: Float64Array.from(this.numbers), paths: this.paths, fingerprints: this.fingerprints };
  }
}

export function packReads(reads: readonly FileRead[]): PackedReads {
  const packer = new ReadPacker();
  for (const r of reads) packer.add(r);
  return packer.take();
}

/** The bytes the packed reads read (size less start, summed). */
export function bytesRead(p: PackedReads): number {
  let sum = 0;
  for (let n = 0; n < p.numbers.length; n += READ_NUM) sum += p.numbers[n]! - p.numbers[n + 3]!;
  return sum;
}

/**
 * The reads of a scan worker's reply, each with its run in the reply's batch (which the disk cache
 * writes as it is). A read whose requests have no key and which has no tail stays packed: every one
 * of its requests is kept, and none is needed as an object to de-duplicate (PackedRead). The others
 * get theirs as objects.
 */
export function readsOfReply(p: PackedReads, batch: PackedBatch): FileRead[] {
  if (p.numbers.length !== p.paths.length * READ_NUM || p.fingerprints.length !== p.paths.length) throw new Error('packed reads do not fit together');
  if (batch.numbers.length !== batch.count * NUM || batch.refs.length !== batch.count * REF || batch.keyLengths.length !== batch.count) throw new Error('packed records do not fit together');
  let reader: RecordReader | null = null; // the batch's keys decoded only for a read that needs them
  const reads: FileRead[] = [];
  let at = 0;
  for (let i = 0; i < p.paths.length; i++) {
    const n = i * READ_NUM;
    const recordCount = p.numbers[n + 8]!;
    const tailCount = p.numbers[n + 9]!;
    if (at + recordCount + tailCount > batch.count) throw new Error('packed reads do not fit their records');
    const fields = fieldsAt(p, i);
    if (tailCount === 0 && recordCount > 0 && noKeys(batch.keyLengths, at, recordCount)) reads.push(new PackedRead(fields, batch, at, recordCount, null, []));
    else {
      reader ??= new RecordReader(batchRecords(batch));
      reader.seek(at);
      const take = (count: number): UsageRecord[] => {
        const out: UsageRecord[] = [];
        for (let k = 0; k < count; k++) out.push(reader!.next(batch.strings));
        return out;
      };
      const records = take(recordCount);
      reads.push(new PackedRead(fields, batch, at, recordCount, records, take(tailCount)));
    }
    at += recordCount + tailCount;
  }
  if (at !== batch.count) throw new Error('packed reads do not fit their records');
  return reads;
}

/** Read `i`'s fields besides its requests. */
function fieldsAt(p: PackedReads, i: number): ReadFields {
  const n = i * READ_NUM;
  return {
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
  };
}

function noKeys(keyLengths: Int32Array, from: number, count: number): boolean {
  for (let i = from; i < from + count; i++) if (keyLengths[i]! >= 0) return false;
  return true;
}
