import fs from 'node:fs/promises';
import path from 'node:path';

const MiB = 1024 * 1024;

/**
 * The most the app reads of a file whose size it does not control. Each is far above what the
 * file holds in real use and far below what would strain the process (a string over 512 MiB
 * cannot even exist in V8). docs/hardening.md ("Bounded reads") lists them.
 */
export const READ_LIMITS = {
  /** `<profile>.settings.json`, the agent tool's settings.json. */
  settings: 4 * MiB,
  /** `config.yaml`, `proxy/config.yaml`. */
  config: 4 * MiB,
  /** `proxy/auth/*.json`: OAuth records of a few KiB. */
  authFile: 1 * MiB,
  /** One error log served as text (the listing reads less, see error-logs.ts). */
  errorLogText: 16 * MiB,
} as const;

/** A file over its read limit: never read, answered with this message. */
export class FileTooLargeError extends Error {
  constructor(
    readonly file: string,
    readonly size: number,
    readonly limit: number,
  ) {
    super(`${path.basename(file)} is ${formatMiB(size)}, over the ${formatMiB(limit)} this file may have; it is not read`);
    this.name = 'FileTooLargeError';
  }
}

/**
 * The whole file, or FileTooLargeError when it holds more than `limit` bytes (checked by size
 * first, and again while reading, for a file that grows meanwhile). Never holds more than
 * `limit` + 1 bytes. Takes an open handle too, so a caller can stat and read the same file.
 */
export async function readBounded(file: string | fs.FileHandle, limit: number, name = ''): Promise<Buffer> {
  if (typeof file === 'string') {
    const handle = await fs.open(file, 'r');
    try {
      return await readBounded(handle, limit, file);
    } finally {
      await handle.close();
    }
  }
  const size = (await file.stat()).size;
  if (size > limit) throw new FileTooLargeError(name, size, limit);
  let buffer = Buffer.allocUnsafe(size + 1);
  let filled = 0;
  for (;;) {
    if (filled > limit) throw new FileTooLargeError(name, filled, limit);
    if (filled === buffer.length) buffer = Buffer.concat([buffer, Buffer.allocUnsafe(Math.min(Math.max(buffer.length, 65_536), limit + 1 - filled))]);
    const { bytesRead } = await file.read(buffer, filled, buffer.length - filled, filled);
    if (bytesRead === 0) break;
    filled += bytesRead;
  }
  return buffer.subarray(0, filled);
}

/** readBounded as UTF-8 text. */
export async function readTextBounded(file: string | fs.FileHandle, limit: number, name = ''): Promise<string> {
  return (await readBounded(file, limit, name)).toString('utf8');
}

export function formatMiB(bytes: number): string {
  return `${(bytes / MiB).toFixed(bytes < MiB ? 2 : 1)} MiB`;
}
