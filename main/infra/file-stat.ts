import fs from 'node:fs/promises';
import { READ_LIMITS, readTextBounded } from './bounded-read.js';

/** The API's notion of mtime: whole milliseconds, floored (decisions §1). */
export function toMtime(mtimeMs: number): number {
  return Math.floor(mtimeMs);
}

export async function statMtime(file: string): Promise<number | null> {
  try {
    return toMtime((await fs.stat(file)).mtimeMs);
  } catch (err) {
    if (isNotFound(err)) return null;
    throw err;
  }
}

/** The file's text, null when it does not exist; FileTooLargeError over `limit` bytes. */
export async function readTextIfExists(file: string, limit: number = READ_LIMITS.config): Promise<string | null> {
  try {
    return await readTextBounded(file, limit);
  } catch (err) {
    if (isNotFound(err)) return null;
    throw err;
  }
}

export function isNotFound(err: unknown): boolean {
  return typeof err === 'object' && err !== null && (err as NodeJS.ErrnoException).code === 'ENOENT';
}

export function errorMessage(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
