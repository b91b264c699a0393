import path from 'node:path';
import { serializeFile } from '../../infra/file-lock.js';
import { acquireInterProcessLock, FileLockBusyError } from '../../infra/inter-process-lock.js';

export interface RefreshLockOptions {
  /** A lock older than this is a crashed holder's (a refresh takes seconds, network included). */
  staleMs?: number;
  /** How long to wait for another process's refresh before giving up. */
  waitMs?: number;
}

/** The refresh of one auth file is held by another process for longer than we wait. */
export class RefreshBusyError extends Error {}

/**
 * Runs `task` as the only refresher of `file`: one at a time inside this process (serializeFile)
 * and across processes (the shared inter-process lock, kept in its own file
 * `.<file>.refresh-lock` so a refresh never blocks the quick writes that take `.<file>.lock`).
 * Codex refresh tokens are single-use (reference §1), so two refreshers of one file would sign
 * the account out. The task re-reads the file after taking the lock: another holder may have
 * refreshed it already.
 */
export function withRefreshLock<T>(file: string, task: () => Promise<T>, { staleMs = 120_000, waitMs = 30_000 }: RefreshLockOptions = {}): Promise<T> {
  const lockPath = path.join(path.dirname(file), `.${path.basename(file)}.refresh-lock`);
  return serializeFile(lockPath, async () => {
    let release: () => Promise<void>;
    try {
      release = await acquireInterProcessLock(file, { lockPath, staleMs, waitMs });
    } catch (err) {
      if (err instanceof FileLockBusyError) throw new RefreshBusyError(`another process is refreshing ${path.basename(file)}`);
      throw err;
    }
    try {
      return await task();
    } finally {
      await release();
    }
  });
}
