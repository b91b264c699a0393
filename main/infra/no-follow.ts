import fsSync from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import { readBounded } from './bounded-read.js';

// The app's own files inside {config_dir} are never reached through a symbolic link (issue 17:
// a planted `<profile>.settings.json` link was read and copied into backups/, a linked backups/
// received backups outside the home, a linked proxy/auth/ had its target's modes changed).
// {config_dir} itself may be a link: the user chose it. What IS followed on purpose (the usage
// scan's agent dirs and instances/, shared/ items) is listed in SECURITY.md.

/** open(2) flags: the last path component must not be a symlink (ELOOP), and a FIFO does not block. */
const NO_FOLLOW = (fsSync.constants.O_NOFOLLOW ?? 0) | (fsSync.constants.O_NONBLOCK ?? 0);

/** A link where the app keeps one of its own files. */
export class LinkRefusedError extends Error {
  readonly code = 'ELINK';
  constructor(readonly file: string) {
    super(`${path.basename(file)} is a symbolic link; Switchboard does not follow links inside its home`);
    this.name = 'LinkRefusedError';
  }
}

/**
 * Opens one of the app's own files for reading without following a link in its place, and only
 * when it is a regular file. ENOENT passes through, so callers keep their "missing" branch.
 */
export async function openOwnFile(file: string): Promise<fs.FileHandle> {
  let handle: fs.FileHandle;
  try {
    handle = await fs.open(file, fsSync.constants.O_RDONLY | NO_FOLLOW);
  } catch (err) {
    // Linux says ELOOP for a final symlink; BSDs say EMLINK or EFTYPE.
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ELOOP' || code === 'EMLINK' || code === 'EFTYPE') throw new LinkRefusedError(file);
    throw err;
  }
  try {
    if (!(await handle.stat()).isFile()) throw Object.assign(new Error(`${path.basename(file)} is not a regular file`), { code: 'EISDIR' });
  } catch (err) {
    await handle.close();
    throw err;
  }
  return handle;
}

/**
 * The content of one of the app's own files, read through `openOwnFile`; with a `limit`, a file
 * over it is FileTooLargeError (bounded-read.ts) and never read whole.
 */
export async function readOwnFile(file: string, limit?: number): Promise<Buffer> {
  const handle = await openOwnFile(file);
  try {
    return limit === undefined ? await handle.readFile() : await readBounded(handle, limit, file);
  } finally {
    await handle.close();
  }
}

/**
 * Text and `Math.floor(mtimeMs)` of one of the app's own files, from one handle (the mtime
 * belongs to the bytes); with a `limit`, as readOwnFile.
 */
export async function readOwnText(file: string, limit?: number): Promise<{ text: string; mtime: number }> {
  const handle = await openOwnFile(file);
  try {
    const { mtimeMs } = await handle.stat();
    const bytes = limit === undefined ? await handle.readFile() : await readBounded(handle, limit, file);
    return { text: bytes.toString('utf8'), mtime: Math.floor(mtimeMs) };
  } finally {
    await handle.close();
  }
}

/**
 * The last `maxBytes` of one of the app's own append-only logs, read through `openOwnFile`:
 * `cut` says the read started after the file's first byte, so its first line is likely partial.
 */
export async function readOwnTail(file: string, maxBytes: number): Promise<{ text: string; cut: boolean }> {
  const handle = await openOwnFile(file);
  try {
    const { size } = await handle.stat();
    const start = Math.max(0, size - maxBytes);
    const buffer = Buffer.allocUnsafe(Math.min(size, maxBytes));
    let filled = 0;
    while (filled < buffer.length) {
      const { bytesRead } = await handle.read(buffer, filled, buffer.length - filled, start + filled);
      if (bytesRead === 0) break;
      filled += bytesRead;
    }
    return { text: buffer.toString('utf8', 0, filled), cut: start > 0 };
  } finally {
    await handle.close();
  }
}

/**
 * Makes `dir` (inside `home`) and every directory between them real directories: missing ones
 * are created 0700 (unless `create` is false), and a symlink in the place of one is replaced by a
 * real directory (the link is removed; its target is not touched). Returns the links it
 * replaced, for the log. A regular file in the way is an error: only links are ever removed.
 */
export async function ensureOwnDir(dir: string, home: string, options: { create?: boolean } = {}): Promise<string[]> {
  const rel = path.relative(home, dir);
  if (rel.startsWith('..') || path.isAbsolute(rel)) throw new Error(`${dir} is not inside ${home}`);
  const replaced: string[] = [];
  let current = home;
  for (const part of rel.split(path.sep).filter(Boolean)) {
    current = path.join(current, part);
    const st = await fs.lstat(current).catch((err: NodeJS.ErrnoException) => {
      if (err.code === 'ENOENT') return null;
      throw err;
    });
    if (st?.isDirectory()) continue;
    if (st?.isSymbolicLink()) {
      await fs.unlink(current);
      replaced.push(current);
    } else if (st) {
      throw Object.assign(new Error(`ENOTDIR: ${current} is not a directory`), { code: 'ENOTDIR' });
    } else if (options.create === false) {
      return replaced;
    }
    await fs.mkdir(current, { mode: 0o700 }).catch((err: NodeJS.ErrnoException) => {
      if (err.code !== 'EEXIST') throw err;
    });
  }
  return replaced;
}

/** The mode of `file` if it is a regular file (not a link), else undefined. */
export async function ownFileMode(file: string): Promise<number | undefined> {
  const st = await fs.lstat(file).catch(() => null);
  return st?.isFile() ? st.mode & 0o777 : undefined;
}
