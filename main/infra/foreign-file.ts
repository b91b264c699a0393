import fsSync from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';

// Files the app reads but does not own (the agent's settings.json, shared content, an editor's
// database, transcripts) may be anything a user or another program put there. A FIFO opened the
// plain way blocks the opening thread until a writer comes: four such opens took libuv's whole
// pool and hung every route that reads a file (issue 27 point 9). So they are opened
// non-blocking, and only a regular file is read. Links are followed: these paths are the user's.

const NON_BLOCKING = fsSync.constants.O_RDONLY | (fsSync.constants.O_NONBLOCK ?? 0);

/** A FIFO, socket, device or directory where a file was expected. */
export class NotRegularFileError extends Error {
  readonly code = 'ENOTREG';
  constructor(readonly file: string) {
    super(`${path.basename(file)} is not a regular file`);
    this.name = 'NotRegularFileError';
  }
}

/** Opens `file` for reading without blocking on a FIFO; anything but a regular file is NotRegularFileError. */
export async function openRegularFile(file: string): Promise<fs.FileHandle> {
  const handle = await fs.open(file, NON_BLOCKING);
  try {
    if (!(await handle.stat()).isFile()) throw new NotRegularFileError(file);
  } catch (err) {
    await handle.close();
    throw err;
  }
  return handle;
}

/** openRegularFile for synchronous readers (the usage scan's workers): the descriptor, to be closed by the caller. */
export function openRegularFileSync(file: string): number {
  return openRegularFileStatSync(file).fd;
}

/** openRegularFileSync with the descriptor's stat, which it takes anyway (a reader needs size and mtime). */
export function openRegularFileStatSync(file: string): { fd: number; stat: fsSync.Stats } {
  const fd = fsSync.openSync(file, NON_BLOCKING);
  try {
    const stat = fsSync.fstatSync(fd);
    if (!stat.isFile()) throw new NotRegularFileError(file);
    return { fd, stat };
  } catch (err) {
    fsSync.closeSync(fd);
    throw err;
  }
}
