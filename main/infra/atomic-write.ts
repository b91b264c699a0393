import fs from 'node:fs/promises';
import path from 'node:path';
import { randomBytes } from 'node:crypto';

export interface AtomicWriteOptions {
  /** File mode of the new file; defaults to the existing file's mode, else 0o600. */
  mode?: number;
  /** Mode for parent directories this write creates. */
  dirMode?: number;
}

/**
 * Replaces `file` so that readers see either the old or the new content, never a mix:
 * temp file in the same directory, fsync, rename, then fsync of the directory.
 */
export async function writeFileAtomic(file: string, data: string | Uint8Array, options: AtomicWriteOptions = {}): Promise<void> {
  const dir = path.dirname(file);
  await fs.mkdir(dir, { recursive: true, mode: options.dirMode ?? 0o700 });
  const mode = options.mode ?? (await existingMode(file)) ?? 0o600;
  const temp = path.join(dir, `.${path.basename(file)}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`);
  const handle = await fs.open(temp, 'wx', mode);
  try {
    await handle.writeFile(data);
    await handle.chmod(mode); // the umask may have narrowed the mode given to open()
    await handle.sync();
  } catch (err) {
    await handle.close();
    await fs.rm(temp, { force: true });
    throw err;
  }
  await handle.close();
  try {
    await fs.rename(temp, file);
  } catch (err) {
    await fs.rm(temp, { force: true });
    throw err;
  }
  await syncDir(dir);
}

async function existingMode(file: string): Promise<number | undefined> {
  try {
    return (await fs.stat(file)).mode & 0o777;
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

/** Removes temp files a killed writer left behind in `dir` (they start with '.' and end in '.tmp'). */
export async function removeStaleTempFiles(dir: string, olderThanMs = 60_000): Promise<void> {
  let names: string[];
  try {
    names = await fs.readdir(dir);
  } catch {
    return;
  }
  const now = Date.now();
  for (const name of names) {
    if (!name.startsWith('.') || !name.endsWith('.tmp')) continue;
    const full = path.join(dir, name);
    try {
      const st = await fs.stat(full);
      if (now - st.mtimeMs >= olderThanMs) await fs.rm(full, { force: true });
    } catch {
      // raced with another cleaner
    }
  }
}
