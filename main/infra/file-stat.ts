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

/**
 * A file as one write left it (size, mtime, inode): every atomic write replaces the file, so an
 * equal identity at a path means the same content. Readers take it from the handle they read
 * through, so a later replacement of the path is never mistaken for what they read.
 */
export interface FileIdentity {
  size: number;
  mtimeMs: number;
  ino: number;
}

export function identityOf(st: FileIdentity): FileIdentity {
  return { size: st.size, mtimeMs: st.mtimeMs, ino: st.ino };
}

/** The identity as text, for keys that must change when the file is replaced. */
export function identityKey(id: FileIdentity): string {
  return `${id.size}:${id.mtimeMs}:${id.ino}`;
}

export function sameIdentity(a: FileIdentity, b: FileIdentity): boolean {
  return a.size === b.size && a.mtimeMs === b.mtimeMs && a.ino === b.ino;
}

/** The identity of the file now at `file`; null when there is none. */
export async function statIdentity(file: string): Promise<FileIdentity | null> {
  try {
    return identityOf(await fs.stat(file));
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

/** Whether anything is at `file` (a broken link counts as nothing). */
export async function pathExists(file: string): Promise<boolean> {
  try {
    await fs.access(file);
    return true;
  } catch {
    return false;
  }
}
