import type fs from 'node:fs/promises';
import { readBounded } from './bounded-read.js';
import { identityOf, sameIdentity, statIdentity, type FileIdentity } from './file-stat.js';

// Switchboard replaces its own files by rename, but an editor, `claude` itself or a script may
// rewrite a settings file in place: truncate, then write. A read in between sees an empty or
// partial file. Reported as broken, that is a scary error for a file that is whole 5 ms later,
// so a read that does not parse is tried again while the file looks mid-write. docs/settings.md
// ("Files rewritten in place") says when and for how long.

/** How long a read waits for a file that is still being written, and what counts as recent. */
export const SETTLE_LIMITS = {
  /** Reads in all, the first included. */
  tries: 5,
  /** The waits between them grow from this. */
  firstWaitMs: 15,
  /** No wait starts after this long since the first read. */
  totalMs: 250,
  /** A file changed this recently may still be mid-write (its truncate landed, its write not yet). */
  recentMs: 2_000,
} as const;

export interface SettleOptions {
  /** Injected in tests to act between two reads; production sleeps without blocking the loop. */
  wait?: (ms: number) => Promise<void>;
  /** The wall clock file times are compared with (not the app's Clock: mtimes are real time). */
  now?: () => number;
}

/**
 * One read of a file: the identity its handle had before the read (identityOf of a plain stat),
 * the bytes, and the identity at its path after the read (statIdentity).
 */
export interface TimedRead {
  bytes: Buffer;
  before: FileIdentity;
  /** null when the path is gone after the read. */
  after: FileIdentity | null;
}

/** Reads an open file whole (at most `limit` bytes, as readBounded), between a stat of the handle and one of its path. */
export async function readTimed(handle: fs.FileHandle, file: string, limit: number): Promise<TimedRead> {
  const before = identityOf(await handle.stat());
  const bytes = await readBounded(handle, limit, file);
  // A path that cannot be stat'ed now counts as gone: the read is tried again (bounded).
  const after = await statIdentity(file).catch(() => null);
  return { bytes, before, after };
}

/** Opens `file` with `open` (the caller's rules: own file, foreign file), reads it as readTimed does, and closes it. */
export async function readFileTimed(file: string, limit: number, open: (file: string) => Promise<fs.FileHandle>): Promise<TimedRead> {
  const handle = await open(file);
  try {
    return await readTimed(handle, file, limit);
  } finally {
    await handle.close();
  }
}

/**
 * Whether a read whose bytes did not parse may have caught the file mid-write: it changed (size,
 * mtime or inode) while being read, fewer or more bytes came than its size said, or it was
 * changed so recently that the writer's next write may not have landed yet.
 */
export function mayBeMidWrite(read: TimedRead, now: number): boolean {
  if (read.after === null || !sameIdentity(read.before, read.after)) return true;
  if (read.bytes.length !== read.before.size) return true;
  return now - read.before.mtimeMs < SETTLE_LIMITS.recentMs;
}

/**
 * Runs `attempt` until it is settled (its bytes parsed, or the file looks stable), at most
 * SETTLE_LIMITS.tries times within about SETTLE_LIMITS.totalMs, and answers the last value: a
 * file that stays broken is answered as broken, only later.
 */
export async function readSettled<T>(attempt: () => Promise<{ value: T; settled: boolean }>, options: SettleOptions = {}): Promise<T> {
  const wait = options.wait ?? sleep;
  const now = options.now ?? Date.now;
  const start = now();
  let delay: number = SETTLE_LIMITS.firstWaitMs;
  for (let tries = 1; ; tries++) {
    const { value, settled } = await attempt();
    if (settled || tries >= SETTLE_LIMITS.tries) return value;
    const left = SETTLE_LIMITS.totalMs - (now() - start);
    if (left <= 0) return value;
    await wait(Math.min(delay, left));
    delay *= 2;
  }
}

/**
 * One attempt of a file's reader: its answer, the read it made (null: none, a missing file say),
 * and whether the bytes are whole: they parsed, or failed in a way a torn write never causes.
 */
export interface ReadAttempt<T> {
  value: T;
  read: TimedRead | null;
  whole: boolean;
}

/** readSettled for a file's reader: an attempt is settled once its bytes are whole, it made no read, or the file does not look mid-write. */
export function readFileSettled<T>(attempt: () => Promise<ReadAttempt<T>>, options: SettleOptions = {}): Promise<T> {
  const now = options.now ?? Date.now;
  return readSettled(async () => {
    const { value, read, whole } = await attempt();
    return { value, settled: whole || read === null || !mayBeMidWrite(read, now()) };
  }, options);
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
