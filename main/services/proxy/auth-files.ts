import fs from 'node:fs/promises';
import path from 'node:path';
import { FileTooLargeError, READ_LIMITS, readBounded } from '../../infra/bounded-read.js';
import { isNotFound, toMtime } from '../../infra/file-stat.js';
import { ensureOwnDir, LinkRefusedError, readOwnFile } from '../../infra/no-follow.js';
import { isSafeFileName, resolveInside } from '../../infra/safe-path.js';
import { ProxyError } from './errors.js';

export interface AuthFileEntry {
  name: string;
  size: number;
  mtime: number;
}

/**
 * proxy/auth/: the provider credentials the proxy uses (CLIProxyAPI's `auth-dir`). Only regular
 * `*.json` files are listed or served. The directory is kept at 0700 and the files at 0600:
 * they hold OAuth tokens, and some login tools write them group-readable.
 */
export class AuthFiles {
  constructor(
    readonly directory: string,
    /** {config_dir}: a link in the place of proxy/auth (or proxy/) is replaced, never followed. */
    private readonly home: string,
  ) {}

  async list(): Promise<{ files: AuthFileEntry[]; directory: string }> {
    await this.secure();
    const files: AuthFileEntry[] = [];
    for (const name of (await fs.readdir(this.directory)).sort()) {
      if (!isAuthFileName(name)) continue;
      try {
        const stat = await fs.lstat(path.join(this.directory, name));
        if (stat.isFile()) files.push({ name, size: stat.size, mtime: toMtime(stat.mtimeMs) });
      } catch (err) {
        if (!isNotFound(err)) throw err;
      }
    }
    return { files, directory: this.directory };
  }

  async read(name: string | undefined): Promise<{ name: string; content: Buffer }> {
    if (name === undefined || name === '') throw new ProxyError('missing-name');
    if (!isAuthFileName(name)) throw new ProxyError('invalid-filename');
    const file = await resolveInside(this.directory, name);
    if (!file) throw new ProxyError('auth-file-not-found');
    try {
      return { name, content: await readOwnFile(file, READ_LIMITS.authFile) };
    } catch (err) {
      // A link or a directory in the place of an auth file is not an auth file.
      if (isNotFound(err) || err instanceof LinkRefusedError || (err as NodeJS.ErrnoException).code === 'EISDIR') {
        throw new ProxyError('auth-file-not-found');
      }
      if (err instanceof FileTooLargeError) throw new ProxyError('file-too-large', err.message);
      throw err;
    }
  }

  /** Creates the directory (0700) and narrows modes that are wider than 0700/0600. */
  async secure(): Promise<void> {
    // Never chmod through a link: its target is not ours (issue 17).
    await ensureOwnDir(this.directory, this.home);
    const dirStat = await fs.lstat(this.directory);
    if ((dirStat.mode & 0o077) !== 0) await fs.chmod(this.directory, 0o700);
    for (const name of await fs.readdir(this.directory)) {
      if (!isAuthFileName(name)) continue;
      const file = path.join(this.directory, name);
      const stat = await fs.lstat(file).catch(() => null);
      if (stat?.isFile() && (stat.mode & 0o077) !== 0) await fs.chmod(file, 0o600).catch(() => undefined);
    }
  }
}

export function isAuthFileName(name: string): boolean {
  return name.endsWith('.json') && name.length > '.json'.length && isSafeFileName(name) && !name.startsWith('.');
}
