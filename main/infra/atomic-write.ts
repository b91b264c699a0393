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
  /**
   * Called once every byte of `data` has been handed to the thread pool (the temp file is open and
   * the write is under way), or when the write fails before that: from then on this thread is free
   * for other work while the bytes go out, and the write's own end (fsync, rename) waits for it.
   * The pieces must not change until the write settles.
   */
  onWriting?: () => void;
  /**
   * false: no fsync of the file or its directory. For files rebuilt from other data and checked
   * when read (the usage disk cache, the terminal's remembered answers): after a crash the new file
   * may be lost or torn, its reader finds it unusable and builds it again, and meanwhile no write
   * waits for the disk. While the system runs, readers still never see a half-written file (the
   * rename). Default true.
   */
  durable?: boolean;
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
  let writing: Promise<void> | undefined;
  try {
    const dir = path.dirname(file);
    await fs.mkdir(dir, { recursive: true, mode: options.dirMode ?? 0o700 });
    const mode = options.mode ?? (await existingMode(file)) ?? 0o600;
    const temp = path.join(dir, `.${path.basename(file)}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`);
    const handle = await fs.open(temp, 'wx', mode);
    // The mode is set while the bytes go out (the umask may have narrowed the one given to open()).
    writing = allDone([handle.chmod(mode), Array.isArray(data) ? writePieces(handle, data) : handle.writeFile(data as string | Uint8Array)]);
    const finished = finish(file, temp, handle, writing, options);
    options.onWriting?.();
    return await finished;
  } finally {
    if (writing === undefined) options.onWriting?.(); // failed before writing: nothing to wait for
  }
}

/** Waits for the bytes, then fsync, rename and the directory's fsync (no fsyncs when not `durable`); the temp file is removed on failure. */
async function finish(file: string, temp: string, handle: fs.FileHandle, writing: Promise<void>, options: AtomicWriteOptions): Promise<FileIdentity> {
  let written: FileIdentity; // a rename keeps the inode and the mtime: this is the file at `file` until it is replaced
  try {
    await writing;
    if (options.durable !== false) await handle.sync();
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
  if (options.durable !== false) await syncDir(path.dirname(file));
  return written;
}

/** Waits for every call on the handle before failing with the first error: the handle is closed only once none is under way. */
async function allDone(calls: ReadonlyArray<Promise<unknown>>): Promise<void> {
  for (const result of await Promise.allSettled(calls)) if (result.status === 'rejected') throw result.reason;
}

/** What `writePieces` needs of a file handle (tests pass a fake one to make writes come up short). */
export type PieceWriter = Pick<fs.FileHandle, 'writev'>;

/**
 * Writes the pieces end to end from position 0, handing them all to the thread pool in ONE
 * positional writev: this thread is free at once (a cache write after a cold scan overlaps the
 * answer's computation), and libuv itself goes through them IOV_MAX at a time and continues after
 * a partial write within that one request. Four concurrent requests were measured no faster
 * (ext4 writes one file's pages under its inode lock), and one leaves the pool's other threads to
 * other file calls. A short write (a full disk, a file size limit) is resumed where it stopped;
 * a write that makes no progress fails.
 */
export async function writePieces(handle: PieceWriter, pieces: readonly Uint8Array[]): Promise<void> {
  let rest = pieces.filter((p) => p.length > 0);
  let position = 0;
  while (rest.length > 0) {
    const { bytesWritten } = await handle.writev(rest, position);
    if (!(bytesWritten > 0)) throw new Error('a write made no progress');
    position += bytesWritten;
    rest = piecesAfter(rest, bytesWritten);
  }
}

/** The pieces left once the first `bytes` bytes of `pieces` are written (the one cut short, trimmed). */
function piecesAfter(pieces: readonly Uint8Array[], bytes: number): Uint8Array[] {
  let first = 0;
  while (first < pieces.length && bytes >= pieces[first]!.length) bytes -= pieces[first++]!.length;
  const rest = pieces.slice(first);
  if (bytes > 0) rest[0] = rest[0]!.subarray(bytes);
  return rest;
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
