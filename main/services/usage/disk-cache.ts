import { isAscii } from 'node:buffer';
import fs from 'node:fs/promises';
import { writeFileAtomic } from '../../infra/atomic-write.js';
import { decodeBinaryFile, encodeBinaryFile } from '../../infra/binary-file.js';
import { identityOf, isNotFound, type FileIdentity } from '../../infra/file-stat.js';
import { checkHead, type CacheHead, type CacheIdentity, type FileRow, type KeyEncoding } from './cache-head.js';
import { USAGE_CACHE_VERSION } from './cache-version.js';
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
  /** null: no anomaly baseline set yet (usage-service.ts). */
  seenAnomalies: string[] | null;
}

export type { CacheIdentity };

/**
 * The file is binary whatever its `.json` name (the name is the contract's): infra/binary-file's
 * container, whose JSON head holds the sources, price table id, lastFetch, announced anomalies,
 * record count, key encoding and one row per file with its string table, followed by the records
 * as raw typed arrays: numbers (Float64 × NUM), refs (Int32 × REF), key lengths (Int32), and the
 * keys end to end (UTF-8, or UTF-16 LE) up to the end of the file. A reader takes views of the
 * arrays in the buffer it read, and builds each record once, straight into its file's lists.
 */
const KIND = { magic: 'SWBUSAGE', version: USAGE_CACHE_VERSION };
const BYTES_PER_RECORD = NUM * 8 + REF * 4 + 4;

export function serializeCache(snapshot: CacheSnapshot, identity: CacheIdentity, pricesId: string): Buffer {
  if (snapshot.kept === null) throw new Error('a cache is written with its kept lists');
  const count = snapshot.files.reduce((n, f) => n + f.records.length + f.tail.length, 0);
  const packer = new RecordPacker(count);
  const files = snapshot.files.map((f, i): FileRow => {
    packFile(packer, f, snapshot.kept![i]!);
    const row: FileRow = [f.path, f.size, f.mtimeMs, f.ino, f.offset, f.fingerprint, f.malformed, f.tailMalformed, f.records.length, f.tail.length, packer.takeStrings(), f.oversized];
    if (f.flagsKey) row.push(f.flagsKey); // agent files read with flags only: the head stays as small for the rest
    return row;
  });
  const keyText = packer.keyText();
  const keys = keyEncoding(keyText);
  const head: CacheHead = { sources: identity, prices: pricesId, lastFetch: snapshot.lastFetch, seenAnomalies: snapshot.seenAnomalies, count, keys, files };
  return encodeCacheFile(head, [bytesOf(packer.numbers), bytesOf(packer.refs), bytesOf(packer.keyLengths), Buffer.from(keyText, keys)]);
}

const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/** A key is a logged id; one with a lone surrogate (a damaged line) would come back altered from UTF-8. */
function keyEncoding(text: string): KeyEncoding {
  if (Buffer.byteLength(text, 'utf8') === text.length) return 'utf8'; // ASCII, the usual case
  return LONE_SURROGATE.test(text) ? 'utf16le' : 'utf8';
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
  return encodeBinaryFile(KIND, head, sections);
}

/** The parsed head and the bytes after it; null when not an intact cache of this version. */
export function decodeCacheFile(bytes: Buffer): { head: unknown; data: Buffer } | null {
  return decodeBinaryFile(bytes, KIND);
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
  const reader = new RecordReader({
    count,
    numbers: new Float64Array(data.buffer, at, count * NUM),
    refs: new Int32Array(data.buffer, at + count * NUM * 8, count * REF),
    keyLengths: new Int32Array(data.buffer, at + count * (NUM * 8 + REF * 4), count),
    keyText: decodeKeys(data.subarray(keysAt), head.keys),
  });
  const files: FileState[] = [];
  const kept: UsageRecord[][] = [];
  for (const [path, size, mtimeMs, ino, offset, fingerprint, malformed, tailMalformed, recordCount, tailCount, strings, oversized = 0, flagsKey = ''] of head.files) {
    // The table's copy of the path becomes `path` itself, so the check below compares pointers.
    const own = strings.indexOf(path);
    if (own !== -1) strings[own] = path;
    const mine: UsageRecord[] = [];
    const take = (n: number): UsageRecord[] => {
      const out: UsageRecord[] = []; // pushed, not preallocated: a packed array iterates faster than a holey one
      for (let i = 0; i < n; i++) {
        const r = reader.next(strings);
        if (r.file !== path) throw new Error('a record of another file');
        out.push(r);
        if (keepFlags && (reader.flags & KEPT) !== 0) mine.push(r);
      }
      return out;
    };
    const records = take(recordCount);
    const tail = take(tailCount);
    files.push({ path, size, mtimeMs, ino, offset, fingerprint, records, tail, malformed, tailMalformed, oversized, flagsKey });
    kept.push(mine);
  }
  if (!reader.done) throw new Error('more records than the files claim');
  return { lastFetch: head.lastFetch, files, kept: keepFlags ? kept : null, seenAnomalies: head.seenAnomalies };
}

/** ASCII keys (the usual ids) decode as latin1, the cheapest decoding. */
function decodeKeys(bytes: Buffer, encoding: KeyEncoding): string {
  if (encoding === 'utf16le') return bytes.toString('utf16le');
  return bytes.toString(isAscii(bytes) ? 'latin1' : 'utf8');
}

function bytesOf(view: Float64Array | Int32Array): Uint8Array {
  return new Uint8Array(view.buffer, view.byteOffset, view.byteLength);
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

/** Resolves with the file written (see `writeFileAtomic`). */
export function writeCacheFile(file: string, snapshot: CacheSnapshot, identity: CacheIdentity, pricesId: string): Promise<FileIdentity> {
  return writeFileAtomic(file, serializeCache(snapshot, identity, pricesId), { mode: 0o600 });
}
