import fs from 'node:fs/promises';

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

export async function readTextIfExists(file: string): Promise<string | null> {
  try {
    return await fs.readFile(file, 'utf8');
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
