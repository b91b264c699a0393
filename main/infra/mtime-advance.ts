import fs from 'node:fs/promises';
import { toMtime } from './file-stat.js';

/**
 * Makes sure a file just written has a later API mtime (whole ms) than `previous`, and returns it.
 *
 * Optimistic locking compares `expectedMtime` with the file's mtime. File systems stamp writes
 * with a coarse clock, so two writes a few ms apart can carry the same mtime, and a client
 * holding the old mtime would then overwrite the newer content unnoticed. Nudging the mtime
 * forward keeps "content changed" and "mtime changed" the same thing.
 */
export async function advanceMtime(file: string, previous: number | null): Promise<number> {
  let stat = await fs.stat(file);
  let mtime = toMtime(stat.mtimeMs);
  for (let attempt = 0; previous !== null && mtime <= previous && attempt < 3; attempt++) {
    // Seconds as a float at +1.5 ms, not a Date at +1: a Date drops the fraction, and the
    // float's rounding could then land just below previous + 1 and floor back onto `previous`.
    await fs.utimes(file, stat.atime, (previous + 1.5 + attempt) / 1000);
    stat = await fs.stat(file);
    mtime = toMtime(stat.mtimeMs);
  }
  return mtime;
}
