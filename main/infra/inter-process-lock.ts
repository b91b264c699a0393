import { randomBytes } from 'node:crypto';
import fsSync from 'node:fs';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { isProcessAlive } from './process-alive.js';
import { sleep } from './process-wait.js';

/**
 * The advisory lock every writer of a `{config_dir}` file takes, the app and each terminal command
 * alike (issue 27.4: `switchboard use` and the app's key changes undid each other's writes). It
 * is a lock file beside the data, `.<name>.lock`, created with O_EXCL, holding who took it. Why
 * not proper-lockfile (only a transitive dependency here, last release 2021): it keeps a timer
 * touching the lock's mtime while held and judges staleness by that mtime alone, so a blocked
 * event loop looks dead; a pid check tells a crashed holder at once, and no write of ours takes
 * seconds, so an age bound covers a reused pid or another host.
 */

interface LockRecord {
  pid: number;
  host: string;
  at: number;
  token: string;
}

/** A lock older than this is stale whoever holds it: every locked step is a read and a rename. */
export const LOCK_STALE_MS = 30_000;
/** How long a writer waits for a live holder before it gives up with FileLockBusyError. */
export const LOCK_WAIT_MS = 20_000;

/** Another live process held the file's lock for longer than LOCK_WAIT_MS. */
export class FileLockBusyError extends Error {
  constructor(file: string, holder: string) {
    super(`${path.basename(file)} is locked by ${holder}; try again`);
    this.name = 'FileLockBusyError';
  }
}

/** `dir/.name.lock` for `dir/name`. */
export function lockPathOf(file: string): string {
  return path.join(path.dirname(file), `.${path.basename(file)}.lock`);
}

const held = new Map<string, string>();
let exitHookSet = false;

/**
 * Takes the inter-process lock of `file` (waiting while a live process holds it, taking over a
 * stale one) and resolves with its release. Not re-entrant: callers serialise within the process
 * first (file-lock.ts does).
 */
export interface InterProcessLockOptions {
  /** How long to wait for a live holder (default LOCK_WAIT_MS). */
  waitMs?: number;
  /** A lock older than this is stale whoever holds it (default LOCK_STALE_MS). */
  staleMs?: number;
  /** The lock file (default `lockPathOf(file)`): another kind of lock on the same file. */
  lockPath?: string;
}

export async function acquireInterProcessLock(file: string, options: number | InterProcessLockOptions = {}): Promise<() => Promise<void>> {
  const opts = typeof options === 'number' ? { waitMs: options } : options;
  const waitMs = opts.waitMs ?? LOCK_WAIT_MS;
  const staleMs = opts.staleMs ?? LOCK_STALE_MS;
  const lock = opts.lockPath ?? lockPathOf(file);
  await fs.mkdir(path.dirname(lock), { recursive: true, mode: 0o700 });
  const mine: LockRecord = { pid: process.pid, host: os.hostname(), at: Date.now(), token: randomBytes(8).toString('hex') };
  const deadline = Date.now() + waitMs;
  for (let attempt = 0; ; attempt++) {
    mine.at = Date.now();
    let created: boolean;
    try {
      created = await createExclusive(lock, mine);
    } catch (err) {
      // A read-only or full {config_dir}: no process can write there either, so the step runs
      // unlocked and fails (or does nothing) at its own write with the area's own error.
      if (UNWRITABLE.has((err as NodeJS.ErrnoException).code ?? '')) return async () => undefined;
      throw err;
    }
    if (created) break;
    if (await removeIfStale(lock, staleMs)) continue;
    if (Date.now() > deadline) throw new FileLockBusyError(file, describeHolder(await readRecord(lock)));
    // Short and jittered: a holder keeps the lock for a read and a rename (milliseconds).
    await sleep(Math.min(50, 2 + attempt * 2) + Math.random() * 5);
  }
  held.set(lock, mine.token);
  setExitHook();
  return async () => {
    if (held.get(lock) !== mine.token) return;
    held.delete(lock);
    const now = await readRecord(lock);
    // Ours unless it was judged stale and taken over meanwhile: never remove another's lock.
    if (now?.token === mine.token) await fs.rm(lock, { force: true });
  };
}

const UNWRITABLE = new Set(['EROFS', 'EACCES', 'EPERM', 'ENOSPC', 'EDQUOT']);

async function createExclusive(lock: string, record: LockRecord): Promise<boolean> {
  let handle: fs.FileHandle;
  try {
    // 'wx' = O_CREAT|O_EXCL: fails on any existing name, a symlink included (never followed).
    handle = await fs.open(lock, 'wx', 0o600);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw err;
  }
  try {
    await handle.writeFile(JSON.stringify(record));
  } catch (err) {
    // A full disk creates the name but not its content: an empty lock would block everyone.
    await handle.close();
    await fs.rm(lock, { force: true });
    throw err;
  }
  await handle.close();
  return true;
}

/**
 * Removes the lock when its holder is gone (same host, pid not running) or it is older than
 * `staleMs`. The lock is first renamed aside and kept only if it is still the file that was
 * judged (same inode): two processes taking over the same stale lock never remove the fresh one
 * a third took meanwhile; if that happened, the fresh one is linked back.
 */
async function removeIfStale(lock: string, staleMs: number): Promise<boolean> {
  const st = await fs.lstat(lock).catch(() => null);
  if (!st) return true; // released meanwhile: try again at once
  const record = await readRecord(lock);
  if (!isStale(record, st.mtimeMs, staleMs)) return false;
  const aside = `${lock}.stale.${process.pid}.${randomBytes(4).toString('hex')}`;
  try {
    await fs.rename(lock, aside);
  } catch {
    return true; // someone else took it over or released it: try again
  }
  const moved = await fs.lstat(aside).catch(() => null);
  if (moved && moved.ino !== st.ino) {
    await fs.link(aside, lock).catch(() => undefined); // a fresh lock: give it back
  }
  await fs.rm(aside, { force: true });
  return true;
}

function isStale(record: LockRecord | null, mtimeMs: number, staleMs: number): boolean {
  const at = record?.at ?? mtimeMs; // unreadable (being written, or not ours): its age decides
  if (Date.now() - at > staleMs) return true;
  return record !== null && record.host === os.hostname() && !isProcessAlive(record.pid);
}

async function readRecord(lock: string): Promise<LockRecord | null> {
  try {
    const handle = await fs.open(lock, fsSync.constants.O_RDONLY | (fsSync.constants.O_NOFOLLOW ?? 0) | (fsSync.constants.O_NONBLOCK ?? 0));
    let text: string;
    try {
      if (!(await handle.stat()).isFile()) return null;
      const { bytesRead, buffer } = await handle.read(Buffer.alloc(1024), 0, 1024, 0);
      text = buffer.subarray(0, bytesRead).toString('utf8');
    } finally {
      await handle.close();
    }
    const data = JSON.parse(text) as Partial<LockRecord>;
    if (!Number.isInteger(data.pid) || typeof data.at !== 'number' || typeof data.token !== 'string') return null;
    return { pid: data.pid!, host: String(data.host ?? ''), at: data.at, token: data.token };
  } catch {
    return null;
  }
}

function describeHolder(record: LockRecord | null): string {
  return record ? `process ${record.pid}${record.host === os.hostname() ? '' : ` on ${record.host}`}` : 'another process';
}

/** A process that exits while holding a lock (an uncaught error mid-write) leaves none behind. */
function setExitHook(): void {
  if (exitHookSet) return;
  exitHookSet = true;
  process.once('exit', () => {
    for (const [lock, token] of held) {
      try {
        const data = JSON.parse(fsSync.readFileSync(lock, 'utf8')) as Partial<LockRecord>;
        if (data.token === token) fsSync.rmSync(lock, { force: true });
      } catch {
        // gone already
      }
    }
  });
}
