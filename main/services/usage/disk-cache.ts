import fs from 'node:fs/promises';
import os from 'node:os';
import { z } from 'zod';
import { writeFileAtomic } from '../../infra/atomic-write.js';
import { isNotFound } from '../../infra/file-stat.js';
import { packRecords, unpackRecords, type PackedRecords } from './record-pack.js';
import type { UsageRecord } from './types.js';
import type { FileState } from './usage-store.js';

/** What survives a restart: the per-file read state, its requests, and what was announced. */
export interface CacheSnapshot {
  lastFetch: number;
  files: FileState[];
  /** The de-duplicated set when written; null after reading if costs must be computed again. */
  kept: UsageRecord[] | null;
  seenAnomalies: string[];
}

export interface CacheIdentity {
  agentDir: string;
  instancesDir: string;
}

const FORMAT = 'switchboard-usage-cache';
const VERSION = 3;

const fileRow = z.tuple([
  z.string(), // path
  z.number(), // size
  z.number(), // mtimeMs
  z.number(), // ino
  z.number(), // offset
  z.string(), // fingerprint
  z.number().int().nonnegative(), // malformed
  z.number().int().nonnegative(), // tailMalformed
  z.number().int().nonnegative(), // records
  z.number().int().nonnegative(), // tail records
  z.array(z.string()), // the file's string table (models, sessions, paths, versions)
]);

const cacheSchema = z.object({
  format: z.literal(FORMAT),
  version: z.literal(VERSION),
  endian: z.literal(os.endianness()),
  sources: z.object({ agentDir: z.string(), instancesDir: z.string() }),
  prices: z.string(),
  lastFetch: z.number().int().nonnegative(),
  seenAnomalies: z.array(z.string()),
  files: z.array(fileRow),
  numbers: z.string(),
  refs: z.string(),
  keyLengths: z.string(),
  keyText: z.string(),
});

/**
 * JSON with a small head (file states, string tables) and four long base64 fields: every record's
 * numbers, string references, key lengths, and all keys end to end as UTF-8. Base64 needs no JSON
 * escaping, so the long parts are pasted in rather than stringified, and the whole file is ASCII
 * (decoded as latin1 on load). Writing and reading stay in the tens of milliseconds for gigabytes
 * of logs, which matters because this runs after every scan.
 */
export function serializeCache(snapshot: CacheSnapshot, identity: CacheIdentity, pricesId: string): string {
  const kept = new Set(snapshot.kept ?? []);
  const packs: PackedRecords[] = [];
  const files = snapshot.files.map((f) => {
    const pack = packRecords([...f.records, ...f.tail], (r) => kept.has(r));
    packs.push(pack);
    return [f.path, f.size, f.mtimeMs, f.ino, f.offset, f.fingerprint, f.malformed, f.tailMalformed, f.records.length, f.tail.length, pack.strings];
  });
  const head = JSON.stringify({
    format: FORMAT,
    version: VERSION,
    endian: os.endianness(),
    sources: identity,
    prices: pricesId,
    lastFetch: snapshot.lastFetch,
    seenAnomalies: snapshot.seenAnomalies,
    files,
  });
  const asciiHead = NON_ASCII.test(head) ? head.replace(NON_ASCII_ALL, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`) : head;
  const joined = {
    numbers: concat(packs.map((p) => p.numbers), Float64Array),
    refs: concat(packs.map((p) => p.refs), Int32Array),
    keyLengths: concat(packs.map((p) => p.keyLengths), Int32Array),
    keyText: Buffer.from(packs.map((p) => p.keyText).join(''), 'utf8').toString('base64'),
  };
  return (
    `${asciiHead.slice(0, -1)},"numbers":"${base64(joined.numbers)}","refs":"${base64(joined.refs)}",` +
    `"keyLengths":"${base64(joined.keyLengths)}","keyText":"${joined.keyText}"}`
  );
}

const NON_ASCII = /[^\x00-\x7f]/;
const NON_ASCII_ALL = /[^\x00-\x7f]/g;

/** null for anything unusable (damaged, another format, other sources): the next scan rebuilds it. */
export function parseCache(text: string, identity: CacheIdentity, pricesId: string): CacheSnapshot | null {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    return null;
  }
  const parsed = cacheSchema.safeParse(raw);
  if (!parsed.success) return null;
  const c = parsed.data;
  if (c.sources.agentDir !== identity.agentDir || c.sources.instancesDir !== identity.instancesDir) return null;
  try {
    const numbers = typedArray(c.numbers, Float64Array);
    const refs = typedArray(c.refs, Int32Array);
    const keyLengths = typedArray(c.keyLengths, Int32Array);
    const keyText = Buffer.from(c.keyText, 'base64').toString('utf8');
    const files: FileState[] = [];
    const kept: UsageRecord[] = [];
    let at = 0;
    let keyAt = 0;
    for (const [path, size, mtimeMs, ino, offset, fingerprint, malformed, tailMalformed, count, tailCount, strings] of c.files) {
      const n = count + tailCount;
      let keyChars = 0;
      for (let i = at; i < at + n; i++) keyChars += Math.max(0, keyLengths[i] ?? 0);
      const unpacked = unpackRecords({
        count: n,
        numbers: numbers.subarray(at * 9, (at + n) * 9),
        refs: refs.subarray(at * 5, (at + n) * 5),
        keyLengths: keyLengths.subarray(at, at + n),
        keyText: keyText.slice(keyAt, keyAt + keyChars),
        strings,
      });
      if (unpacked.records.some((r) => r.file !== path)) return null;
      unpacked.records.forEach((r, i) => unpacked.kept[i] && kept.push(r));
      files.push({ path, size, mtimeMs, ino, offset, fingerprint, malformed, tailMalformed, records: unpacked.records.slice(0, count), tail: unpacked.records.slice(count) });
      at += n;
      keyAt += keyChars;
    }
    if (at * 9 !== numbers.length || keyAt !== keyText.length) return null;
    return { lastFetch: c.lastFetch, files, kept: c.prices === pricesId ? kept : null, seenAnomalies: c.seenAnomalies };
  } catch {
    return null;
  }
}

export async function readCacheFile(file: string, identity: CacheIdentity, pricesId: string): Promise<CacheSnapshot | null | 'missing'> {
  let bytes: Buffer;
  try {
    bytes = await fs.readFile(file);
  } catch (err) {
    if (isNotFound(err)) return 'missing';
    throw err;
  }
  // Written as ASCII. Only the head holds text that could be non-ASCII (paths, names, all escaped
  // when written); a high byte there means another writer or damage: decode it the careful way.
  let text = bytes.toString('latin1');
  const headEnd = text.indexOf('"numbers":"');
  if (NON_ASCII.test(headEnd === -1 ? text : text.slice(0, headEnd))) text = bytes.toString('utf8');
  return parseCache(text, identity, pricesId);
}

export async function writeCacheFile(file: string, snapshot: CacheSnapshot, identity: CacheIdentity, pricesId: string): Promise<void> {
  await writeFileAtomic(file, Buffer.from(serializeCache(snapshot, identity, pricesId), 'latin1'), { mode: 0o600 });
}

function concat<T extends Float64Array | Int32Array>(parts: T[], Kind: { new (length: number): T }): T {
  const out = new Kind(parts.reduce((sum, p) => sum + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

function base64(view: Float64Array | Int32Array): string {
  return Buffer.from(view.buffer, view.byteOffset, view.byteLength).toString('base64');
}

function typedArray<T extends Float64Array | Int32Array>(text: string, Kind: { new (buffer: ArrayBuffer): T; BYTES_PER_ELEMENT: number }): T {
  const bytes = Buffer.from(text, 'base64');
  if (bytes.length % Kind.BYTES_PER_ELEMENT !== 0) throw new Error('truncated array');
  // Copy into a fresh, aligned buffer: a Buffer may sit at any offset of a shared pool.
  const copy = new ArrayBuffer(bytes.length);
  new Uint8Array(copy).set(bytes);
  return new Kind(copy);
}
