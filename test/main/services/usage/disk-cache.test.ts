import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  decodeCacheFile,
  encodeCacheFile,
  parseCache,
  readCacheFile,
  serializeCache,
  writeCacheFile,
  type CacheSnapshot,
} from '../../../../main/services/usage/disk-cache.js';
import type { FileState } from '../../../../main/services/usage/usage-store.js';
import { usageRecord } from '../../../fixtures/usage/lines.js';
import { spyOnFileSync } from '../../../helpers/file-sync-spy.js';

const identity = { agentDir: '/a', instancesDir: '/c/instances' };
const file = '/a/projects/café/s.jsonl';
const other = '/a/projects/p/t.jsonl';
const a = usageRecord({ key: 'm1\u0000r1', file, offset: 0, cost: 0.25, inputTokens: 3, model: 'claude-opus-4-6', fast: true, projectPath: '/home/josé' });
const b = usageRecord({ key: 'm1\u0000r1', file, offset: 120, cost: 0.5, sidechain: true, version: null });
const c = usageRecord({ key: null, file, offset: 240, cost: 0, model: null, timestamp: 1.7e12 + 0.5 });
const d = usageRecord({ key: 'ключ\u0000r2', file: other, offset: 0, cost: 1, sessionId: 's2', cacheReadTokens: 2 ** 40 });
const state: FileState = { path: file, size: 400, mtimeMs: 1.5, ino: 7, offset: 360, fingerprint: 'fp', records: [a, b], tail: [c], malformed: 2, tailMalformed: 1, oversized: 3, flagsKey: '' };
const second: FileState = { path: other, size: 90, mtimeMs: 2, ino: 8, offset: 90, fingerprint: 'fq', records: [d], tail: [], malformed: 0, tailMalformed: 0, oversized: 0, flagsKey: 'read-with-flags' }; // an agent file read with flags (agent-flags.ts)
const snapshot: CacheSnapshot = { lastFetch: 1234, files: [state, second], kept: [[a, c], [d]], seenAnomalies: ['cost_spike|2026-01-01'] };
/** The files without their packed runs (a restore gives each file its run in the segment read). */
const plain = (files: FileState[]) => files.map(({ packed: _run, ...f }) => f);
/** A snapshot read back, its files without their runs. */
const plainSnapshot = (s: CacheSnapshot | null) => s && { ...s, files: plain(s.files) };

/** Rewrites the head and writes the file again around the same records, with a valid checksum. */
const withHead = (mutate: (head: any) => void, data?: (bytes: Buffer) => Buffer) => {
  const decoded = decodeCacheFile(serializeCache(snapshot, identity, 'p'))!;
  const head = decoded.head as any;
  mutate(head);
  return parseCache(encodeCacheFile(head, [data ? data(decoded.data) : decoded.data]), identity, 'p');
};

describe('disk cache format', () => {
  it('round-trips files, records, the kept lists and announced anomalies', () => {
    const back = parseCache(serializeCache(snapshot, identity, 'prices-1'), identity, 'prices-1')!;
    expect(back.lastFetch).toBe(1234);
    expect(back.seenAnomalies).toEqual(['cost_spike|2026-01-01']);
    expect(plain(back.files)).toEqual([state, second]);
    expect(back.kept).toEqual([[a, c], [d]]);
    // The kept lists hold the very records of the files, as the store expects.
    expect(back.kept![0]![1]).toBe(back.files[0]!.tail[0]);
  });

  it('round-trips ASCII-only keys (read the cheap way) and an empty cache', () => {
    const ascii: CacheSnapshot = { ...snapshot, files: [state], kept: [[a]] };
    expect(plainSnapshot(parseCache(serializeCache(ascii, identity, 'p'), identity, 'p'))).toEqual(ascii);
    const empty: CacheSnapshot = { lastFetch: 0, files: [], kept: [], seenAnomalies: [] };
    expect(parseCache(serializeCache(empty, identity, 'p'), identity, 'p')).toEqual(empty);
  });

  it('keeps a key with a lone surrogate (a damaged id) exactly, apart from one with another', () => {
    const lone = usageRecord({ key: 'm\ud800\u0000r', file: other, offset: 10, sessionId: 's2' });
    const other2 = usageRecord({ key: 'm\udbff\u0000r', file: other, offset: 20, sessionId: 's2' });
    const odd: CacheSnapshot = { ...snapshot, files: [state, { ...second, records: [d, lone, other2] }], kept: [[a, c], [d, lone, other2]] };
    const back = parseCache(serializeCache(odd, identity, 'p'), identity, 'p')!;
    expect(back.files[1]!.records.map((r) => r.key)).toEqual([d.key, 'm\ud800\u0000r', 'm\udbff\u0000r']);
    const keysOf = (s: CacheSnapshot) => (decodeCacheFile(serializeCache(s, identity, 'p'))!.head as { segments: unknown[][] }).segments[0]![2];
    expect(keysOf(odd)).toBe('utf16le');
    expect(keysOf(snapshot)).toBe('utf8');
  });

  it('reads a buffer that does not start on an 8-byte boundary', () => {
    const bytes = serializeCache(snapshot, identity, 'p');
    const shifted = Buffer.concat([Buffer.alloc(3), bytes]).subarray(3);
    expect(shifted.byteOffset % 8).not.toBe(0);
    expect(plain(parseCache(shifted, identity, 'p')!.files)).toEqual([state, second]);
  });

  it('starts with a fixed header: magic, byte order, version, head length', () => {
    const bytes = serializeCache(snapshot, identity, 'p');
    expect(bytes.toString('latin1', 0, 8)).toBe('SWBUSAGE');
    const le = os.endianness() === 'LE';
    expect(le ? bytes.readUInt32LE(8) : bytes.readUInt32BE(8)).toBe(0x01020304);
    expect(le ? bytes.readUInt32LE(12) : bytes.readUInt32BE(12)).toBe(11);
    const headBytes = le ? bytes.readUInt32LE(16) : bytes.readUInt32BE(16);
    expect(JSON.parse(bytes.toString('utf8', 24, 24 + headBytes))).toMatchObject({ sources: identity, prices: 'p', lastFetch: 1234, segments: [[4, 21, 'utf8', expect.any(Number), expect.any(Array)]] });
  });

  it('drops the kept lists when the price table changed, so costs are computed again', () => {
    const back = parseCache(serializeCache(snapshot, identity, 'prices-1'), identity, 'prices-2')!;
    expect(back.kept).toBeNull();
    expect(back.files).toEqual([state, second]);
    // The records packed there carry the other table's costs: no file keeps a run to write as it is.
    expect(back.files.map((f) => f.packed)).toEqual([undefined, undefined]);
  });

  it('refuses kept lists that are missing or not in file order rather than writing wrong flags', () => {
    expect(() => serializeCache({ ...snapshot, kept: [[c, a], [d]] }, identity, 'p')).toThrow(/file order/);
    expect(() => serializeCache({ ...snapshot, kept: null }, identity, 'p')).toThrow(/kept lists/);
  });

  it('is unusable for another agent dir or instances dir', () => {
    const bytes = serializeCache(snapshot, identity, 'p');
    expect(parseCache(bytes, { ...identity, agentDir: '/other' }, 'p')).toBeNull();
    expect(parseCache(bytes, { ...identity, instancesDir: '/other' }, 'p')).toBeNull();
  });

  it.each([
    ['truncated by 10 bytes', (bytes: Buffer) => bytes.subarray(0, bytes.length - 10)],
    ['truncated inside the header', (bytes: Buffer) => bytes.subarray(0, 20)],
    ['empty', () => Buffer.alloc(0)],
    // Both still parse as a well-formed cache with other numbers: only the checksum tells.
    ['one bit flipped in a token count', (bytes: Buffer) => flip(bytes, bytes.length - decodeCacheFile(bytes)!.data.length + 8)],
    ['one bit flipped in the head (lastFetch 1234 → 1235)', (bytes: Buffer) => flip(bytes, bytes.indexOf('1234') + 3)],
    ['another magic', (bytes: Buffer) => Buffer.concat([Buffer.from('SWBUSAGX'), bytes.subarray(8)])],
    ['the other byte order', (bytes: Buffer) => withU32(bytes, 8, 0x04030201)],
    ['another version', (bytes: Buffer) => withU32(bytes, 12, 3)],
    // version 5 merged lines without requestId by session + message id alone: its records are counted the old way
    ['version 5, an intact cache of the previous counting', (bytes: Buffer) => withU32(bytes, 12, 5)],
    ['a head length past the end', (bytes: Buffer) => withU32(bytes, 16, bytes.length)],
    ['the JSON cache of version 3', () => Buffer.from('{"format":"switchboard-usage-cache","version":3,"endian":"LE","files":[]}')],
  ])('is unusable when %s', (_name, damage) => {
    expect(parseCache(damage(serializeCache(snapshot, identity, 'p')), identity, 'p')).toBeNull();
  });

  it.each([
    ['a segment record count that does not fit its bytes', (h: any) => (h.segments[0][0] += 1)],
    ['a segment key length that does not fit its bytes', (h: any) => (h.segments[0][1] -= 1)],
    ['another segment checksum', (h: any) => (h.segments[0][3] ^= 1)],
    ['another kept bitmap checksum', (h: any) => (h.kept ^= 1)],
    ['a row claiming one record more', (h: any) => (h.files[0][11] += 1)],
    ['a run past the end of its segment', (h: any) => (h.files[1][10] = 4)],
    ['a row naming a segment that is not there', (h: any) => (h.files[1][9] = 1)],
    ['a file row naming another file', (h: any) => (h.files[0][0] = '/a/projects/x.jsonl')],
    ['a reference outside the string table', (h: any) => (h.segments[0][4] = [])],
    ['a row of the wrong shape', (h: any) => (h.files[0][1] = '400')],
    ['a negative count', (h: any) => (h.files[0][6] = -1)],
    ['a flags key that is not text', (h: any) => (h.files[1][12] = 5)],
    ['a row longer than any format wrote', (h: any) => h.files[1].push('x')],
    ['no sources', (h: any) => delete h.sources],
    ['an unknown key encoding', (h: any) => (h.segments[0][2] = 'latin1')],
  ])('is unusable with %s', (_name, mutate) => {
    expect(withHead(mutate)).toBeNull();
  });

  it.each([[[]], [null], ['head'], [5]])('is unusable with the head %j', (head) => {
    const { data } = decodeCacheFile(serializeCache(snapshot, identity, 'p'))!;
    expect(parseCache(encodeCacheFile(head, [data]), identity, 'p')).toBeNull();
  });

  it('is unusable when the records are cut short, or the keys do not fit their lengths', () => {
    expect(withHead(() => undefined)).not.toBeNull(); // the helper itself keeps a cache usable
    expect(withHead(() => undefined, (data) => data.subarray(0, 100))).toBeNull();
    expect(withHead(() => undefined, (data) => Buffer.concat([data, Buffer.from('x')]))).toBeNull();
    expect(withHead(() => undefined, (data) => data.subarray(0, data.length - 1))).toBeNull();
  });
});

describe('disk cache file', () => {
  it('is written atomically with mode 0600 and read back; a missing file says so', async () => {
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'switchboard-usage-cache-'));
    try {
      const target = path.join(dir, '.cache', 'usage-cache.json');
      expect(await readCacheFile(target, identity, 'p')).toBe('missing');
      const syncs = await spyOnFileSync();
      const written = await writeCacheFile(target, snapshot, identity, 'p');
      expect(syncs).not.toHaveBeenCalled(); // not durable: rebuilt from the logs, checked when read
      syncs.mockRestore();
      const st = await fs.stat(target);
      expect(st.mode & 0o777).toBe(0o600);
      // What the write reports is the file now at the path, and what a read of it reports.
      expect(written).toEqual({ size: st.size, mtimeMs: st.mtimeMs, ino: st.ino });
      expect(await fs.readdir(path.dirname(target))).toEqual(['usage-cache.json']);
      const read = await readCacheFile(target, identity, 'p');
      expect(read === 'missing' ? read : { ...read, snapshot: plainSnapshot(read.snapshot) }).toEqual({ snapshot: { ...snapshot, files: plain(snapshot.files) }, file: written });
    } finally {
      await fs.rm(dir, { recursive: true, force: true });
    }
  });
});

function flip(bytes: Buffer, at: number): Buffer {
  const copy = Buffer.from(bytes);
  copy[at] = copy[at]! ^ 1;
  return copy;
}

function withU32(bytes: Buffer, at: number, value: number): Buffer {
  const copy = Buffer.from(bytes);
  if (os.endianness() === 'LE') copy.writeUInt32LE(value, at);
  else copy.writeUInt32BE(value, at);
  return copy;
}
