import fs from 'node:fs/promises';
import path from 'node:path';

/**
 * Resolves a client-supplied relative path inside `root` and proves it stays there, symlinks
 * included. Returns null for anything that escapes, is absolute, holds NUL or `..` segments.
 * A path that does not exist yet is checked against its nearest existing ancestor.
 */
export async function resolveInside(root: string, relative: string): Promise<string | null> {
  if (!isPlainRelative(relative)) return null;
  const lexical = path.resolve(root, relative);
  if (!isWithin(path.resolve(root), lexical)) return null;
  let realRoot: string;
  try {
    realRoot = await fs.realpath(root);
  } catch {
    return null;
  }
  const real = await realpathOfNearest(lexical);
  return real !== null && isWithin(realRoot, real) ? lexical : null;
}

/** Names a client may use for a single file in a directory: no separators, no traversal. */
export function isSafeFileName(name: string): boolean {
  return (
    name.length > 0 &&
    name.length <= 255 &&
    name !== '.' &&
    name !== '..' &&
    !/[/\\\0]/.test(name) &&
    !name.includes('..')
  );
}

export function isPlainRelative(relative: string): boolean {
  if (relative.length === 0 || relative.length > 4096 || relative.includes('\0')) return false;
  if (path.isAbsolute(relative) || path.win32.isAbsolute(relative) || relative.includes('\\')) return false;
  return !relative.split('/').some((part) => part === '..');
}

export function isWithin(root: string, candidate: string): boolean {
  const rel = path.relative(root, candidate);
  return rel === '' || (!rel.startsWith('..') && !path.isAbsolute(rel));
}

async function realpathOfNearest(target: string): Promise<string | null> {
  let current = target;
  const rest: string[] = [];
  for (;;) {
    try {
      return path.join(await fs.realpath(current), ...rest);
    } catch {
      const parent = path.dirname(current);
      if (parent === current) return null;
      rest.unshift(path.basename(current));
      current = parent;
    }
  }
}
