import { isAscii } from 'node:buffer';
import { crc32 } from 'node:zlib';
import { NUM, REF, type PackedRecords } from './record-pack.js';
import type { UsageRecord } from './types.js';

/** How a batch's keys are stored: UTF-8, or UTF-16 when a key holds a lone surrogate UTF-8 cannot carry. */
export type KeyEncoding = 'utf8' | 'utf16le';

/**
 * Packed records in the form the disk cache writes them as one segment, made once where the
 * records were packed (a scan worker, off the main thread): the keys as bytes, and the CRC-32 of
 * the segment's bytes. Its bytes never change afterwards: the cache writes them by reference.
 */
export interface PackedBatch {
  count: number;
  numbers: Float64Array;
  refs: Int32Array;
  keyLengths: Int32Array;
  keyBytes: Uint8Array;
  keys: KeyEncoding;
  strings: string[];
  /** CRC-32 of `batchPieces(batch)` end to end. */
  crc: number;
}

/**
 * Where a file's records sit in a batch: `records` then `tail` records from `first` on. It holds
 * for the very arrays it was made with (`lists`): a file given other arrays (an append's merged
 * winners, a copy with other records) does not write these bytes by mistake. Without `lists`, the
 * run of a PackedRead (packed-read.ts), which drops it when given other records.
 */
export interface PackedRun {
  batch: PackedBatch;
  first: number;
  records: number;
  tail: number;
  lists?: readonly [readonly UsageRecord[], readonly UsageRecord[]];
}

const ZEROS = new Uint8Array(8);
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

export function sealBatch(p: PackedRecords): PackedBatch {
  const keys = keyEncoding(p.keyText);
  // Not pooled: the worker transfers its buffer, and a pooled one would take its neighbours along.
  const keyBytes = Buffer.allocUnsafeSlow(Buffer.byteLength(p.keyText, keys));
  keyBytes.write(p.keyText, 0, keys);
  const { count } = p;
  const batch: PackedBatch = {
    count,
    numbers: p.numbers.subarray(0, count * NUM),
    refs: p.refs.subarray(0, count * REF),
    keyLengths: p.keyLengths.subarray(0, count),
    keyBytes,
    keys,
    strings: p.strings,
    crc: 0,
  };
  // Empty pieces skipped: one with no memory behind it is zlib's crc32(crc, NULL, 0), which answers 0.
  batch.crc = batchPieces(batch).reduce((crc, piece) => (piece.length === 0 ? crc : crc32(piece, crc)), 0);
  return batch;
}

/** A key is a logged id; one with a lone surrogate (a damaged line) would come back altered from UTF-8. */
function keyEncoding(text: string): KeyEncoding {
  if (Buffer.byteLength(text, 'utf8') === text.length) return 'utf8'; // ASCII, the usual case
  return LONE_SURROGATE.test(text) ? 'utf16le' : 'utf8';
}

/**
 * The batch's bytes as the disk cache lays them out: numbers, refs, key lengths, keys, each
 * starting on an 8-byte boundary (zero padding), so a reader takes typed-array views of them.
 */
export function batchPieces(b: PackedBatch): Uint8Array[] {
  const lengths = bytesOf(b.keyLengths);
  return [bytesOf(b.numbers), bytesOf(b.refs), lengths, ZEROS.subarray(0, pad(lengths.length)), b.keyBytes, ZEROS.subarray(0, pad(b.keyBytes.length))];
}

/** The bytes `batchPieces` makes for `count` records with `keyBytes` bytes of keys. */
export function batchSize(count: number, keyBytes: number): number {
  return count * (NUM * 8 + REF * 4) + align8(count * 4) + align8(keyBytes);
}

/**
 * The batch stored at `at` in `data` (an 8-byte aligned buffer), as views of it. Throws when the
 * bytes do not match the checksum recorded when the batch was made: the cache is damaged.
 */
export function batchAt(data: Buffer, at: number, row: { count: number; keyBytes: number; keys: KeyEncoding; strings: string[]; crc: number }): PackedBatch {
  const { count, keys, strings, crc } = row;
  const size = batchSize(count, row.keyBytes);
  if (at + size > data.length) throw new Error('segment cut short');
  if (crc32(data.subarray(at, at + size)) !== crc) throw new Error('segment damaged');
  const base = data.byteOffset + at;
  const refsAt = base + count * NUM * 8;
  const lengthsAt = refsAt + count * REF * 4;
  const keysAt = at + count * (NUM * 8 + REF * 4) + align8(count * 4);
  return {
    count,
    numbers: new Float64Array(data.buffer, base, count * NUM),
    refs: new Int32Array(data.buffer, refsAt, count * REF),
    keyLengths: new Int32Array(data.buffer, lengthsAt, count),
    keyBytes: data.subarray(keysAt, keysAt + row.keyBytes),
    keys,
    strings,
    crc,
  };
}

/** The keys end to end as one string (ASCII keys, the usual ids, decode the cheapest way). */
export function batchKeyText(b: PackedBatch): string {
  const bytes = Buffer.from(b.keyBytes.buffer, b.keyBytes.byteOffset, b.keyBytes.byteLength);
  if (b.keys === 'utf16le') return bytes.toString('utf16le');
  return bytes.toString(isAscii(bytes) ? 'latin1' : 'utf8');
}

/** The batch as PackedRecords, for a RecordReader. */
export function batchRecords(b: PackedBatch): PackedRecords {
  return { count: b.count, numbers: b.numbers, refs: b.refs, keyLengths: b.keyLengths, keyText: batchKeyText(b), strings: b.strings };
}

function bytesOf(view: Float64Array | Int32Array): Uint8Array {
  return new Uint8Array(view.buffer, view.byteOffset, view.byteLength);
}

export function align8(n: number): number {
  return Math.ceil(n / 8) * 8;
}

function pad(n: number): number {
  return align8(n) - n;
}
