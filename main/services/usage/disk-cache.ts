import fs from 'node:fs/promises';
import os from 'node:os';
import { z } from 'zod';
import { writeFileAtomic } from '../../infra/atomic-write.js';
import { isNotFound } from '../../infra/file-stat.js';
import { packRecords, unpackRecords } from './record-pack.js';
import type { UsageRecord } from './types.js';
import type { FileState } from './usage-store.js';

/** What survives a restart: the per-file read state, its requests, and what was announced. */
export interface CacheSnapshot {
  lastFetch: number;
  files: FileState[];
  seenAnomalies: string[];
}

export interface CacheIdentity {
  agentDir: string;
  instancesDir: string;
}

const FORMAT = 'switchboard-usage-cache';
const VERSION = 1;

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
]);

const cacheSchema = z.object({
  format: z.literal(FORMAT),
  version: z.literal(VERSION),
  endian: z.literal(os.endianness()),
  sources: z.object({ agentDir: z.string(), instancesDir: z.string() }),
  lastFetch: z.number().int().nonnegative(),
  seenAnomalies: z.array(z.string()),
  files: z.array(fileRow),
  records: z.object({
    count: z.number().int().nonnegative(),
    numbers: z.string(),
    refs: z.string(),
    keys: z.array(z.string()),
    strings: z.array(z.string()),
  }),
});

/** JSON whose bulk is two base64 strings: it parses in tens of milliseconds even for gigabytes of logs. */
export function serializeCache(snapshot: CacheSnapshot, identity: CacheIdentity): string {
  const all: UsageRecord[] = [];
  const files = snapshot.files.map((f) => {
    all.push(...f.records, ...f.tail);
    return [f.path, f.size, f.mtimeMs, f.ino, f.offset, f.fingerprint, f.malformed, f.tailMalformed, f.records.length, f.tail.length];
  });
  const packed = packRecords(all);
  return JSON.stringify({
    format: FORMAT,
    version: VERSION,
    endian: os.endianness(),
    sources: identity,
    lastFetch: snapshot.lastFetch,
    seenAnomalies: snapshot.seenAnomalies,
    files,
    records: {
      count: packed.count,
      numbers: base64(packed.numbers),
      refs: base64(packed.refs),
      keys: packed.keys,
      strings: packed.strings,
    },
  });
}

/** null for anything unusable (damaged, another format, other sources): the next scan rebuilds it. */
export function parseCache(text: string, identity: CacheIdentity): CacheSnapshot | null {
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
  let records: UsageRecord[];
  try {
    records = unpackRecords({
      count: c.records.count,
      numbers: typedArray(c.records.numbers, Float64Array),
      refs: typedArray(c.records.refs, Int32Array),
      keys: c.records.keys,
      strings: c.records.strings,
    });
  } catch {
    return null;
  }
  const files: FileState[] = [];
  let at = 0;
  for (const [path, size, mtimeMs, ino, offset, fingerprint, malformed, tailMalformed, count, tailCount] of c.files) {
    if (at + count + tailCount > records.length) return null;
    const own = records.slice(at, at + count + tailCount);
    at += count + tailCount;
    if (own.some((r) => r.file !== path)) return null;
    files.push({ path, size, mtimeMs, ino, offset, fingerprint, malformed, tailMalformed, records: own.slice(0, count), tail: own.slice(count) });
  }
  if (at !== records.length) return null;
  return { lastFetch: c.lastFetch, files, seenAnomalies: c.seenAnomalies };
}

export async function readCacheFile(file: string, identity: CacheIdentity): Promise<CacheSnapshot | null | 'missing'> {
  let text: string;
  try {
    text = await fs.readFile(file, 'utf8');
  } catch (err) {
    if (isNotFound(err)) return 'missing';
    throw err;
  }
  return parseCache(text, identity);
}

export async function writeCacheFile(file: string, snapshot: CacheSnapshot, identity: CacheIdentity): Promise<void> {
  await writeFileAtomic(file, serializeCache(snapshot, identity), { mode: 0o600 });
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
