import fs from 'node:fs/promises';
import os from 'node:os';
import { crc32 } from 'node:zlib';
import { writeFileAtomic } from '../../infra/atomic-write.js';
import { isNotFound } from '../../infra/file-stat.js';
import { KEPT, NUM, REF, RecordPacker, RecordReader } from './record-pack.js';
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

export interface CacheIdentity {
  agentDir: string;
  instancesDir: string;
}

/*
 * The file is binary, whatever its `.json` name (the name is the contract's):
 *    0  "SWBUSAGE"
 *    8  u32 0x01020304 in the writer's byte order (typed arrays are stored in that order)
 *   12  u32 format version
 *   16  u32 byte length of the head
 *   20  u32 CRC-32 of every byte after the header
 *   24  head: UTF-8 JSON (sources, price table id, lastFetch, announced anomalies, record count,
 *       one row per file with its string table), zero padding to a multiple of 8, then the records
 *       as raw typed arrays: numbers (Float64 × NUM), refs (Int32 × REF), key lengths (Int32),
 *       and the keys end to end as UTF-8 up to the end of the file.
 * A reader takes views of the arrays in the buffer it read: no text decoding of the bulk, no
 * copies (one only if the buffer were misaligned).
 */
const MAGIC = 'SWBUSAGE';
const VERSION = 4;
const BYTE_ORDER_MARK = 0x01020304;
const HEADER_BYTES = 24;
const BYTES_PER_RECORD = NUM * 8 + REF * 4 + 4;
const LITTLE_ENDIAN = os.endianness() === 'LE';

/** path, size, mtimeMs, ino, offset, fingerprint, malformed, tailMalformed, records, tail records, string table. */
type FileRow = [string, number, number, number, number, string, number, number, number, number, string[]];

interface CacheHead {
  sources: CacheIdentity;
  prices: string;
  lastFetch: number;
  seenAnomalies: string[];
  count: number;
  files: FileRow[];
}

export function serializeCache(snapshot: CacheSnapshot, identity: CacheIdentity, pricesId: string): Buffer {
  const count = snapshot.files.reduce((n, f) => n + f.records.length + f.tail.length, 0);
  const packer = new RecordPacker(count);
  const files = snapshot.files.map((f, i): FileRow => {
    packFile(packer, f, snapshot.kept?.[i] ?? []);
    return [f.path, f.size, f.mtimeMs, f.ino, f.offset, f.fingerprint, f.malformed, f.tailMalformed, f.records.length, f.tail.length, packer.takeStrings()];
  });
  const head: CacheHead = { sources: identity, prices: pricesId, lastFetch: snapshot.lastFetch, seenAnomalies: snapshot.seenAnomalies, count, files };
  return encodeCacheFile(head, [bytesOf(packer.numbers), bytesOf(packer.refs), bytesOf(packer.keyLengths), Buffer.from(packer.keyText(), 'utf8')]);
}

/** Records, then tail, each flagged when it is in the file's kept list (a subsequence of both). */
function packFile(packer: RecordPacker, f: FileState, kept: readonly UsageRecord[]): void {
  let next = 0;
  const add = (r: UsageRecord) => {
    const isKept = kept[next] === r;
    if (isKept) next++;
    packer.add(r, isKept);
  };
  f.records.forEach(add);
  f.tail.forEach(add);
  if (next !== kept.length) throw new Error(`kept requests of ${f.path} are not in file order`);
}

/** The file around a head and its data sections (exported for tests that damage a head). */
export function encodeCacheFile(head: unknown, sections: readonly Uint8Array[]): Buffer {
  const headText = JSON.stringify(head);
  const headBytes = Buffer.byteLength(headText, 'utf8');
  const dataAt = align8(HEADER_BYTES + headBytes);
  // Not pooled, so the header view below is aligned; every byte is written below, the padding too.
  const out = Buffer.allocUnsafeSlow(sections.reduce((n, s) => n + s.length, dataAt));
  out.write(MAGIC, 0, 'latin1');
  out.write(headText, HEADER_BYTES, 'utf8');
  out.fill(0, HEADER_BYTES + headBytes, dataAt);
  let at = dataAt;
  for (const s of sections) {
    out.set(s, at);
    at += s.length;
  }
  const view = new DataView(out.buffer, out.byteOffset, HEADER_BYTES);
  view.setUint32(8, BYTE_ORDER_MARK, LITTLE_ENDIAN);
  view.setUint32(12, VERSION, LITTLE_ENDIAN);
  view.setUint32(16, headBytes, LITTLE_ENDIAN);
  view.setUint32(20, crc32(out.subarray(HEADER_BYTES)), LITTLE_ENDIAN);
  return out;
}

/**
 * The parsed head and the bytes after it, or null when this is not an intact cache of this
 * version and byte order (another format, truncated, damaged anywhere: the CRC covers it all).
 */
export function decodeCacheFile(bytes: Buffer): { head: unknown; data: Buffer } | null {
  if (bytes.length < HEADER_BYTES || bytes.toString('latin1', 0, MAGIC.length) !== MAGIC) return null;
  const view = new DataView(bytes.buffer, bytes.byteOffset, HEADER_BYTES);
  if (view.getUint32(8, LITTLE_ENDIAN) !== BYTE_ORDER_MARK || view.getUint32(12, LITTLE_ENDIAN) !== VERSION) return null;
  const headEnd = HEADER_BYTES + view.getUint32(16, LITTLE_ENDIAN);
  const dataAt = align8(headEnd);
  if (dataAt > bytes.length || view.getUint32(20, LITTLE_ENDIAN) !== crc32(bytes.subarray(HEADER_BYTES))) return null;
  try {
    return { head: JSON.parse(bytes.toString('utf8', HEADER_BYTES, headEnd)), data: bytes.subarray(dataAt) };
  } catch {
    return null;
  }
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

/** One pass over the records: each built once, straight into its file's lists. */
function restoreFiles(head: CacheHead, data: Buffer, keepFlags: boolean): CacheSnapshot {
  const { count } = head;
  const keysAt = count * BYTES_PER_RECORD;
  if (data.length < keysAt) throw new Error('records cut short');
  // Typed array views need aligned offsets; a Buffer from a pool may start anywhere.
  if (data.byteOffset % 8 !== 0) data = Buffer.from(data);
  const at = data.byteOffset;
  const keyLengths = new Int32Array(data.buffer, at + count * (NUM * 8 + REF * 4), count);
  const reader = new RecordReader({
    count,
    numbers: new Float64Array(data.buffer, at, count * NUM),
    refs: new Int32Array(data.buffer, at + count * NUM * 8, count * REF),
    keyLengths,
    keyText: decodeKeys(data.subarray(keysAt), keyLengths),
  });
  const files: FileState[] = [];
  const kept: UsageRecord[][] = [];
  for (const [path, size, mtimeMs, ino, offset, fingerprint, malformed, tailMalformed, recordCount, tailCount, strings] of head.files) {
    // The table's copy of the path becomes `path` itself, so the check below compares pointers.
    const own = strings.indexOf(path);
    if (own !== -1) strings[own] = path;
    const mine: UsageRecord[] = [];
    const take = (n: number): UsageRecord[] => {
      const out: UsageRecord[] = new Array(n);
      for (let i = 0; i < n; i++) {
        const r = reader.next(strings);
        if (r.file !== path) throw new Error('a record of another file');
        out[i] = r;
        if (keepFlags && (reader.flags & KEPT) !== 0) mine.push(r);
      }
      return out;
    };
    const records = take(recordCount);
    const tail = take(tailCount);
    files.push({ path, size, mtimeMs, ino, offset, fingerprint, records, tail, malformed, tailMalformed });
    kept.push(mine);
  }
  if (!reader.done) throw new Error('more records than the files claim');
  return { lastFetch: head.lastFetch, files, kept: keepFlags ? kept : null, seenAnomalies: head.seenAnomalies };
}

/**
 * Keys that are all ASCII (the usual ids) decode as latin1, the cheapest decoding. They are when
 * their UTF-8 takes one byte per UTF-16 unit: any other character takes more bytes than units.
 */
function decodeKeys(bytes: Buffer, lengths: Int32Array): string {
  let units = 0;
  for (const n of lengths) if (n > 0) units += n;
  return bytes.toString(bytes.length === units ? 'latin1' : 'utf8');
}

/** Hand checks rather than a schema: thousands of rows, checked on every start. */
function checkHead(h: unknown): CacheHead | null {
  if (!isObject(h) || !isObject(h.sources)) return null;
  const { sources, prices, lastFetch, seenAnomalies, count, files } = h;
  if (typeof sources.agentDir !== 'string' || typeof sources.instancesDir !== 'string' || typeof prices !== 'string') return null;
  if (!isCount(lastFetch) || !isStringArray(seenAnomalies) || !isCount(count) || !Array.isArray(files)) return null;
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
    row.length === 11 &&
    typeof row[0] === 'string' &&
    [row[1], row[2], row[3], row[4]].every(Number.isFinite) &&
    typeof row[5] === 'string' &&
    [row[6], row[7], row[8], row[9]].every(isCount) &&
    isStringArray(row[10])
  );
}

function isObject(x: unknown): x is Record<string, unknown> {
  return typeof x === 'object' && x !== null && !Array.isArray(x);
}

function isCount(x: unknown): x is number {
  return Number.isSafeInteger(x) && (x as number) >= 0;
}

function isStringArray(x: unknown): x is string[] {
  return Array.isArray(x) && x.every((s) => typeof s === 'string');
}

function align8(n: number): number {
  return Math.ceil(n / 8) * 8;
}

function bytesOf(view: Float64Array | Int32Array): Uint8Array {
  return new Uint8Array(view.buffer, view.byteOffset, view.byteLength);
}

export async function readCacheFile(file: string, identity: CacheIdentity, pricesId: string): Promise<CacheSnapshot | null | 'missing'> {
  let bytes: Buffer;
  try {
    bytes = await fs.readFile(file);
  } catch (err) {
    if (isNotFound(err)) return 'missing';
    throw err;
  }
  return parseCache(bytes, identity, pricesId);
}

export async function writeCacheFile(file: string, snapshot: CacheSnapshot, identity: CacheIdentity, pricesId: string): Promise<void> {
  await writeFileAtomic(file, serializeCache(snapshot, identity, pricesId), { mode: 0o600 });
}
