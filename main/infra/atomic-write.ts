import fsSync from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
// Type only: this module stays free of runtime imports of ours (its crash test runs it compiled alone).
import type { FileIdentity } from './file-stat.js';

export interface AtomicWriteOptions {
  /** File mode of the new file; defaults to the existing file's mode, else 0o600. */
  mode?: number;
  /** Mode for parent directories this write creates. */
  dirMode?: number;
  /**
   * Asked right before the rename, once the new content is on disk: false leaves `file` as it is
   * (the temp file is removed) and the write rejects with FileChangedError. A writer that merged
   * into a file others also write checks here that the file is still the one it read.
   */
  beforeRename?: () => Promise<boolean>;
  /**
   * The last word, synchronous: asked right before a synchronous rename, in the same tick, so no
   * other callback and no trip through the thread pool comes between the check and the rename.
   */
  stillSameSync?: () => boolean;
}

/** The `beforeRename` check said no: nothing was replaced. */
export class FileChangedError extends Error {
  readonly code = 'ECHANGED';
  constructor(readonly file: string) {
    super(`${path.basename(file)} changed while it was being rewritten`);
    this.name = 'FileChangedError';
  }
}

/**
 * Replaces `file` so that readers see either the old or the new content, never a mix:
 * temp file in the same directory, fsync, rename, then fsync of the directory. Resolves with
 * what it wrote as the file system sees it (taken from the handle, so another writer's later
 * replacement of the path cannot be mistaken for ours). `data` may be a list of pieces, written
 * in order without being joined first (a large file made of buffers held elsewhere).
 */
export async function writeFileAtomic(file: string, data: string | Uint8Array | readonly Uint8Array[], options: AtomicWriteOptions = {}): Promise<FileIdentity> {
  const dir = path.dirname(file);
  await fs.mkdir(dir, { recursive: true, mode: options.dirMode ?? 0o700 });
  const mode = options.mode ?? (await existingMode(file)) ?? 0o600;
  const temp = path.join(dir, `.${path.basename(file)}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`);
  const handle = await fs.open(temp, 'wx', mode);
  let written: FileIdentity; // a rename keeps the inode and the mtime: this is the file at `file` until it is replaced
  try {
    if (Array.isArray(data)) await writePieces(handle, data);
    else await handle.writeFile(data as string | Uint8Array);
    await handle.chmod(mode); // the umask may have narrowed the mode given to open()
    await handle.sync();
    const st = await handle.stat();
    written = { size: st.size, mtimeMs: st.mtimeMs, ino: st.ino };
  } catch (err) {
    await handle.close();
    await fs.rm(temp, { force: true });
    throw err;
  }
  await handle.close();
  try {
    if (options.beforeRename && !(await options.beforeRename())) throw new FileChangedError(file);
    if (options.stillSameSync) {
      if (!options.stillSameSync()) throw new FileChangedError(file);
      fsSync.renameSync(temp, file);
    } else {
      await fs.rename(temp, file);
    }
  } catch (err) {
    await fs.rm(temp, { force: true });
    throw err;
  }
  await syncDir(dir);
  return written;
}

/** Pieces per writev call: well under IOV_MAX (1024 on Linux). */
const WRITEV_GROUP = 256;

/** Writes the pieces in order from the handle's position, resuming after a short write. */
async function writePieces(handle: fs.FileHandle, pieces: readonly Uint8Array[]): Promise<void> {
  for (let i = 0; i < pieces.length; i += WRITEV_GROUP) {
    const group = pieces.slice(i, i + WRITEV_GROUP).filter((p) => p.length > 0);
    let first = 0;
    while (first < group.length) {
      let { bytesWritten } = await handle.writev(first === 0 ? group : group.slice(first));
      if (bytesWritten === 0) throw new Error('a write made no progress');
      while (first < group.length && bytesWritten >= group[first]!.length) bytesWritten -= group[first++]!.length;
      if (bytesWritten > 0) group[first] = group[first]!.subarray(bytesWritten);
    }
  }
}

/** The mode of the file being replaced; a link's target is not ours, so a link gives none (0600 then). */
async function existingMode(file: string): Promise<number | undefined> {
  try {
    const st = await fs.lstat(file);
    return st.isFile() ? st.mode & 0o777 : undefined;
  } catch {
    return undefined;
  }
}

async function syncDir(dir: string): Promise<void> {
  try {
    const handle = await fs.open(dir, 'r');
    try {
      await handle.sync();
    } finally {
      await handle.close();
    }
  } catch {
    // Directory fsync is not supported everywhere (Windows); the rename is still atomic.
  }
}

/** `.<name>.<pid>.<12 hex>.tmp`: the temp names writeFileAtomic (and the home lock) create. */
const TEMP_NAME = /^\..+\.(\d+)\.[0-9a-f]{12}\.tmp$/;

/**
 * Removes temp files a killed writer left behind in `dir` (named as writeFileAtomic names them;
 * any other `.tmp` is not ours and stays). A temp file is stale when the process named in it is
 * gone, or when it is older than `olderThanMs` (pids get reused; a live writer finishes well
 * within a minute). Files of this process are only removed by age, since one of our own writes
 * may be in flight. A symlink is removed as a link, never followed. With `only`, just the temp
 * files of that one file name (in a directory the app shares with others, such as the agent's).
 */
export async function removeStaleTempFiles(dir: string, olderThanMs = 60_000, only?: string): Promise<number> {
  let names: string[];
  try {
    names = await fs.readdir(dir);
  } catch {
    return 0;
  }
  const now = Date.now();
  let removed = 0;
  for (const name of names) {
    const match = TEMP_NAME.exec(name);
    if (!match || (only !== undefined && !name.startsWith(`.${only}.`))) continue;
    const full = path.join(dir, name);
    try {
      const st = await fs.lstat(full);
      if (!st.isFile() && !st.isSymbolicLink()) continue;
      if (now - st.mtimeMs >= olderThanMs || writerIsGone(Number(match[1]))) {
        await fs.rm(full, { force: true });
        removed++;
      }
    } catch {
      // raced with another cleaner
    }
  }
  return removed;
}

/** Whether the writer named in a temp file's name has exited. */
function writerIsGone(pid: number): boolean {
  if (pid === process.pid || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return false;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'ESRCH';
  }
}
