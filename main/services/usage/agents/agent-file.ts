import fs from 'node:fs';
import type { Pricing } from '../pricing.js';
import type { FileRead, Scratch } from '../scan-file.js';
import { readsStore } from './agent.js';
import { loaderOf } from './registry.js';
import { storeStat } from './store-stat.js';

/**
 * The largest agent file read. Agent files are read whole (JSON documents, or JSONL whose counting
 * carries state from the first line), so a larger one is skipped and counted as oversized.
 */
export const MAX_AGENT_FILE_BYTES = 256 * 1024 * 1024;

/** A store changed this close to its query (or later) may hold a commit the query did not see. */
export const STORE_SETTLE_MS = 2_000;
/** The mtime a store's state keeps when its read may have missed a commit: never a file's, so it is read again. */
export const UNSETTLED_MTIME = -1;

/**
 * Reads one agent file whole into the scanner's shape. Its offset stays 0, so the next change
 * (an append included) reads it whole again: codex's deltas depend on every earlier line.
 * With `scratch`, a file that fits is read by one read call into it (see textOf).
 */
export function readAgentFile(task: { path: string; agent: string; flags?: string }, pricing: Pricing, scratch?: Scratch): FileRead {
  const loader = loaderOf(task.agent);
  if (loader === undefined) throw new Error(`no loader for agent ${task.agent}`);
  const fd = fs.openSync(task.path, 'r');
  try {
    const stat = fs.fstatSync(fd);
    const read: FileRead = { path: task.path, size: stat.size, mtimeMs: stat.mtimeMs, ino: stat.ino, dev: stat.dev, nlink: stat.nlink, start: 0, offset: 0, records: [], tail: [], malformed: 0, tailMalformed: 0, oversized: 0, fingerprint: '' };
    if (loader.readStore !== undefined && readsStore(loader, task.path)) {
      // A SQLite store: queried page by page with the sqlite3 tool, never read as text.
      const started = Date.now();
      Object.assign(read, storeStat(task.path, stat));
      const found = loader.readStore({ path: task.path, mtimeMs: stat.mtimeMs, flags: task.flags ?? '' });
      for (const r of found.records) r.cost = pricing.costOf(r);
      read.records = found.records;
      read.malformed = found.malformed;
      // A commit in WAL mode grows `-wal` before its rows are visible (the fsync in between): a
      // store written to just before its query may have been read without them, under the new
      // stat, and would not be read again until it changed again. Its state then keeps a stat no
      // file has, so the next scan reads it again (git's "racy" entries, the same idea).
      if (read.mtimeMs >= started - STORE_SETTLE_MS) read.mtimeMs = UNSETTLED_MTIME;
      return read;
    }
    if (stat.size > MAX_AGENT_FILE_BYTES) {
      read.oversized = 1;
      return read;
    }
    const text = textOf(fd, stat.size, scratch);
    const found = loader.read({ path: task.path, text, mtimeMs: stat.mtimeMs, flags: task.flags ?? '' });
    for (const r of found.records) r.cost = pricing.costOf(r);
    read.records = found.records;
    read.malformed = found.malformed;
    return read;
  } finally {
    fs.closeSync(fd);
  }
}

/**
 * The file's text. Most agent files are small (OpenCode writes one message a file): one read of
 * size + 1 bytes into the scan's scratch buffer takes the whole file and shows its end, where
 * readFileSync reads again to see the end and allocates a buffer per file. Decoding is the same
 * (both replace invalid UTF-8 alike). A file that grew past its stat is read again whole.
 */
function textOf(fd: number, size: number, scratch: Scratch | undefined): string {
  if (scratch === undefined || size + 1 > scratch.buffer.length) return fs.readFileSync(fd, 'utf8');
  const n = fs.readSync(fd, scratch.buffer, 0, size + 1, 0);
  return n > size ? fs.readFileSync(fd, 'utf8') : scratch.buffer.toString('utf8', 0, n);
}
