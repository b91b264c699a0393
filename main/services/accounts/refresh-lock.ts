import fs from 'node:fs/promises';
import path from 'node:path';
import { serializeFile } from '../../infra/file-lock.js';
import { isNotFound } from '../../infra/file-stat.js';

export interface RefreshLockOptions {
  /** A lock older than this is a crashed holder's (a refresh takes seconds). */
  staleMs?: number;
  /** How long to wait for another process's refresh before giving up. */
  waitMs?: number;
  pollMs?: number;
}

/** The refresh of one auth file is held by another process for longer than we wait. */
export class RefreshBusyError extends Error {}

/**
 * Runs `task` as the only refresher of `file`: one at a time inside this process (serializeFile)
 * and across processes (an O_EXCL lock file `.<file>.refresh-lock` beside it, holding the pid).
 * Codex refresh tokens are single-use (reference §1), so two refreshers of one file would sign
 * the account out. The task re-reads the file after taking the lock: another holder may have
 * refreshed it already.
 */
export function withRefreshLock<T>(file: string, task: () => Promise<T>, options: RefreshLockOptions = {}): Promise<T> {
  const lock = path.join(path.dirname(file), `.${path.basename(file)}.refresh-lock`);
  return serializeFile(lock, async () => {
    await acquire(lock, options);
    try {
      return await task();
    } finally {
      await fs.rm(lock, { force: true });
    }
  });
}

async function acquire(lock: string, { staleMs = 120_000, waitMs = 30_000, pollMs = 50 }: RefreshLockOptions): Promise<void> {
  const deadline = Date.now() + waitMs;
  for (;;) {
    try {
      const handle = await fs.open(lock, 'wx', 0o600);
      await handle.writeFile(`${process.pid} ${Date.now()}\n`);
      await handle.close();
      return;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    }
    if (await isStale(lock, staleMs)) {
      await fs.rm(lock, { force: true });
      continue;
    }
    if (Date.now() >= deadline) throw new RefreshBusyError(`another process is refreshing ${path.basename(lock).slice(1, -'.refresh-lock'.length)}`);
    await new Promise((resolve) => setTimeout(resolve, pollMs));
  }
}

/** The holder's process is gone, or the lock is older than `staleMs`. */
async function isStale(lock: string, staleMs: number): Promise<boolean> {
  let text: string;
  try {
    text = await fs.readFile(lock, 'utf8');
  } catch (err) {
    return isNotFound(err) ? false : true;
  }
  const [pidText, sinceText] = text.trim().split(' ');
  const pid = Number(pidText);
  const since = Number(sinceText);
  if (Number.isFinite(since) && Date.now() - since > staleMs) return true;
  if (!Number.isSafeInteger(pid) || pid <= 0) return !Number.isFinite(since);
  if (pid === process.pid) return false;
  try {
    process.kill(pid, 0);
    return false;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'ESRCH';
  }
}
