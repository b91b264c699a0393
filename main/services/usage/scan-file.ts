import { createHash } from 'node:crypto';
import fs from 'node:fs';
import { fileWinners } from './dedupe.js';
import { parseUsageLine } from './parse-line.js';
import type { Pricing } from './pricing.js';
import { toUsageRecord } from './record.js';
import type { ParsedUsage, UsageRecord } from './types.js';
import { openRegularFileStatSync, openRegularFileSync } from '../../infra/foreign-file.js';
import type { PackedRun } from './packed-batch.js';

/** What one read of one transcript found; `start` > 0 means only the part after `start` was read. */
export interface FileRead {
  path: string;
  size: number;
  mtimeMs: number;
  ino: number;
  /** With `ino`, tells a second path to a file already read (a cold scan finds files without a stat). */
  dev: number;
  /** Hard links to the file: more than one, and it may have been found by a second path. */
  nlink: number;
  start: number;
  /** End of the last complete line: an append is read from here. */
  offset: number;
  /** Requests of complete lines read now, priced, reduced to the file's winner per key. */
  records: UsageRecord[];
  /** A request on an unterminated last line; replaced by the next read of the file. */
  tail: UsageRecord[];
  malformed: number;
  tailMalformed: number;
  /** Complete lines longer than MAX_LINE_BYTES (newline included): skipped without being held, counted. */
  oversized: number;
  /** Digest of the file's first and last bytes before `offset`, to tell an append from a rewrite. */
  fingerprint: string;
  /** An agent file: the key of the flags it was read with (agent-flags.ts), set by the loader. */
  flagsKey?: string;
  /** Where a scan worker packed `records` and `tail` (absent for a read in this thread). */
  packed?: PackedRun;
}

export interface ReadTask {
  path: string;
  start: number;
  /** Set for another coding agent's file (agents/): read whole by that agent's loader. */
  agent?: string;
  /** The agent's options for this scan (agents/agent.ts `flags`). */
  flags?: string;
}

/**
 * A buffer reused across files so a scan allocates once, grown only for lines longer than it, up
 * to MAX_LINE_BYTES: a longer line is skipped, so a scan never holds more than that of one line.
 */
export interface Scratch {
  buffer: Buffer;
}

export function newScratch(bytes = 4 << 20): Scratch {
  return { buffer: Buffer.allocUnsafe(bytes) };
}

// A line that records a request has `message.usage.output_tokens`, so it contains the key
// `"output_tokens":` (inside a JSON string those quotes would be escaped; agents write no space
// before a colon). Lines without it are never parsed: most bytes are tool output on such lines.
// A 16-byte needle lets Buffer#indexOf skip twice as far as `"usage":` would.
const MARKER = Buffer.from('"output_tokens":');
const NEWLINE = 0x0a;
const FINGERPRINT_BYTES = 1024;
/**
 * The longest line read, its newline included. No request line comes near this (they are a few KiB; tool output can reach megabytes). A longer
 * line is read through in buffer-sized pieces and dropped, never gathered: a 1 GB line once took
 * the server to 2 GB of memory.
 */
export const MAX_LINE_BYTES = 64 * 1024 * 1024;

/** Reads a transcript from `start` with one reused buffer, parsing only lines that can hold usage. */
export function readTranscript(task: ReadTask, scratch: Scratch, pricing: Pricing, maxLineBytes = MAX_LINE_BYTES): FileRead {
  // Non-blocking, regular files only: a FIFO put in a transcript's place after the scan listed it
  // must not hang the worker (it is reported as failed, as an unreadable file is).
  const { fd, stat } = openRegularFileStatSync(task.path);
  try {
    const read: FileRead = {
      path: task.path,
      size: stat.size,
      mtimeMs: stat.mtimeMs,
      ino: stat.ino,
      dev: stat.dev,
      nlink: stat.nlink,
      start: task.start,
      offset: task.start,
      records: [],
      tail: [],
      malformed: 0,
      tailMalformed: 0,
      oversized: 0,
      fingerprint: '',
    };
    const end = scanLines(fd, read, stat.size, scratch, maxLineBytes);
    // Priced and reduced here, in the reading thread: the main thread only merges winners.
    for (const r of read.records) r.cost = pricing.costOf(r);
    for (const r of read.tail) r.cost = pricing.costOf(r);
    read.records = fileWinners(read.records);
    read.size = Math.max(end, read.offset);
    read.fingerprint = fingerprintAt(fd, read.offset);
    return read;
  } finally {
    fs.closeSync(fd);
  }
}

/** Returns how far the file could be read (less than `size` when it shrank meanwhile). */
function scanLines(fd: number, read: FileRead, size: number, scratch: Scratch, maxLineBytes: number): number {
  let filePos = read.start;
  let carry = 0; // bytes of an unfinished line kept at the start of the buffer
  let skipping = false; // inside a line over maxLineBytes: its bytes so far are dropped
  while (filePos < size) {
    let buf = scratch.buffer;
    if (carry === buf.length) {
      if (buf.length >= maxLineBytes) {
        skipping = true;
        carry = 0;
      } else buf = grow(scratch, carry, maxLineBytes);
    }
    const n = fs.readSync(fd, buf, carry, Math.min(buf.length - carry, size - filePos), filePos);
    if (n === 0) break;
    const chunkStart = filePos - carry; // file offset of buf[0]
    filePos += n;
    const filled = carry + n;
    // Searches must stop at `filled`: past it lie stale bytes of earlier files.
    const view = buf.subarray(0, filled);
    let pos = 0;
    if (skipping) {
      const end = view.indexOf(NEWLINE);
      if (end === -1) {
        carry = 0;
        continue;
      }
      skipping = false;
      read.oversized++;
      pos = end + 1;
      read.offset = chunkStart + pos;
    }
    let marker = view.indexOf(MARKER, pos);
    for (;;) {
      const nl = view.indexOf(NEWLINE, pos);
      if (nl === -1) break;
      if (marker !== -1 && marker < nl) {
        takeLine(read, buf, pos, nl, chunkStart + pos, false);
        marker = view.indexOf(MARKER, nl + 1);
      } else if (!looksLikeObject(buf, pos, nl)) {
        read.malformed++;
      }
      pos = nl + 1;
      read.offset = chunkStart + pos;
    }
    carry = filled - pos;
    if (carry > 0 && pos > 0) buf.copy(buf, 0, pos, filled);
  }
  // An unfinished line still being skipped is not a line yet: the next read starts before it.
  if (carry > 0 && !skipping) {
    const buf = scratch.buffer;
    const tailStart = filePos - carry;
    if (buf.subarray(0, carry).indexOf(MARKER) !== -1) takeLine(read, buf, 0, carry, tailStart, true);
    else if (!looksLikeObject(buf, 0, carry)) read.tailMalformed++;
  }
  return filePos;
}

function takeLine(read: FileRead, buf: Buffer, from: number, to: number, offset: number, tail: boolean): void {
  // latin1 keeps JSON's structure byte for byte and is the cheapest decoding; strings we keep
  // that came out non-ASCII are decoded again as UTF-8 below.
  let parsed = parseUsageLine(buf.toString('latin1', from, to));
  if (typeof parsed === 'object' && hasNonAscii(parsed)) parsed = parseUsageLine(buf.toString('utf8', from, to));
  if (parsed === 'none') return;
  if (parsed === 'malformed') {
    if (tail) read.tailMalformed++;
    else read.malformed++;
    return;
  }
  (tail ? read.tail : read.records).push(toUsageRecord(parsed, read.path, offset));
}

const HIGH = /[^\x00-\x7f]/;

function hasNonAscii(p: ParsedUsage): boolean {
  return [p.messageId, p.requestId, p.model, p.sessionId, p.cwd, p.version].some((s) => s !== null && HIGH.test(s));
}

/** Blank lines are fine; anything else that is not `{…}` is a damaged line, counted. */
function looksLikeObject(buf: Buffer, from: number, to: number): boolean {
  while (from < to && isSpace(buf[from]!)) from++;
  while (to > from && isSpace(buf[to - 1]!)) to--;
  return from === to || (buf[from] === 0x7b && buf[to - 1] === 0x7d);
}

function isSpace(byte: number): boolean {
  return byte === 0x20 || byte === 0x0d || byte === 0x09;
}

function grow(scratch: Scratch, keep: number, max: number): Buffer {
  const bigger = Buffer.allocUnsafe(Math.min(scratch.buffer.length * 2, max));
  scratch.buffer.copy(bigger, 0, 0, keep);
  scratch.buffer = bigger;
  return bigger;
}

/**
 * A rewritten transcript almost always differs in its first line (ids, timestamps) or just before
 * the old end; hashing both costs two small reads instead of re-reading the file.
 */
export function fingerprintAt(fd: number, offset: number): string {
  if (offset === 0) return '';
  const hash = createHash('sha1');
  const head = Math.min(FINGERPRINT_BYTES, offset);
  const tail = Math.min(FINGERPRINT_BYTES, offset - head);
  const bytes = Buffer.alloc(head + tail);
  let n = fs.readSync(fd, bytes, 0, head, 0);
  if (tail > 0) n += fs.readSync(fd, bytes, head, tail, offset - tail);
  hash.update(bytes.subarray(0, n));
  return hash.digest('base64');
}

/** True when the bytes before `offset` are still what a previous read saw there. */
export function fingerprintMatches(file: string, offset: number, fingerprint: string): boolean {
  try {
    const fd = openRegularFileSync(file); // runs on the main thread: a FIFO here would stop everything
    try {
      return fingerprintAt(fd, offset) === fingerprint;
    } finally {
      fs.closeSync(fd);
    }
  } catch {
    return false;
  }
}
