import path from 'node:path';

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
