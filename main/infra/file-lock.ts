import path from 'node:path';
import { acquireInterProcessLock } from './inter-process-lock.js';

const tails = new Map<string, Promise<unknown>>();

/**
 * Runs `task` after every earlier task for the same file has settled, so read-check-write
 * sequences on one file never interleave inside this process.
 */
export function serializeFile<T>(file: string, task: () => Promise<T>): Promise<T> {
  const key = path.resolve(file);
  const previous = tails.get(key) ?? Promise.resolve();
  const run = previous.then(task, task);
  const tail = run.catch(() => undefined);
  tails.set(key, tail);
  void tail.then(() => {
    if (tails.get(key) === tail) tails.delete(key);
  });
  return run;
}

/**
 * `serializeFile` plus the inter-process lock (issue 27.4): for every file of `{config_dir}`,
 * which the app and the terminal commands both write. The whole read-check-write runs under it.
 */
export function lockFile<T>(file: string, task: () => Promise<T>): Promise<T> {
  return serializeFile(file, async () => {
    const release = await acquireInterProcessLock(file);
    try {
      return await task();
    } finally {
      await release();
    }
  });
}
