import fs from 'node:fs/promises';
import path from 'node:path';
import { writeFileAtomic } from '../../infra/atomic-write.js';
import { writeBackup } from '../../infra/backup.js';
import { READ_LIMITS } from '../../infra/bounded-read.js';
import { lockFile } from '../../infra/file-lock.js';
import { isNotFound } from '../../infra/file-stat.js';
import { isRecord } from '../../infra/json-checks.js';
import { readOwnFile } from '../../infra/no-follow.js';
import type { Paths } from '../../infra/paths.js';
import { AuthFiles, isAuthFileName } from '../proxy/auth-files.js';

export type AuthRecord = Record<string, unknown>;

export interface StoredAuth {
  /** File name inside proxy/auth/. */
  file: string;
  record: AuthRecord;
  mtime: number;
}

/** Removed accounts kept in backups/auth/ per file name. */
const BACKUPS_KEPT = 20;

/**
 * The accounts' files in proxy/auth/ (CLIProxyAPI's `auth-dir`): JSON objects, 0600, in a 0700
 * directory, replaced atomically, one writer at a time per file inside this process. Files that
 * are not JSON objects are skipped (they are not accounts, whatever else they are).
 */
export class AuthStore {
  private readonly files: AuthFiles;

  constructor(private readonly paths: Paths) {
    this.files = new AuthFiles(paths.proxyAuthDir, paths.configDir);
  }

  get directory(): string {
    return this.paths.proxyAuthDir;
  }

  async list(): Promise<StoredAuth[]> {
    const { files } = await this.files.list();
    const out: StoredAuth[] = [];
    for (const entry of files) {
      const stored = await this.read(entry.name);
      if (stored) out.push(stored);
    }
    return out;
  }

  /** The file's record; null when missing, a link, too large or not a JSON object. */
  async read(file: string): Promise<StoredAuth | null> {
    if (!isAuthFileName(file)) return null;
    const full = path.join(this.directory, file);
    try {
      const [bytes, stat] = await Promise.all([readOwnFile(full, READ_LIMITS.authFile), fs.lstat(full)]);
      const parsed: unknown = JSON.parse(bytes.toString('utf8'));
      return isRecord(parsed) ? { file, record: parsed, mtime: Math.floor(stat.mtimeMs) } : null;
    } catch {
      return null;
    }
  }

  /** Writes the whole record (0600), creating the directory (0700) when needed. */
  async write(file: string, record: AuthRecord): Promise<void> {
    if (!isAuthFileName(file)) throw new Error(`not an auth file name: ${file}`);
    await this.files.secure();
    await lockFile(path.join(this.directory, file), () => this.writeNow(file, record));
  }

  /**
   * Read-modify-write under the file's lock (in-process and between processes: the CLI writes here too); `mutate` answers the new record, or null
   * to leave the file as it is. Answers the record now on disk (null when the file is gone).
   */
  async update(file: string, mutate: (current: AuthRecord) => AuthRecord | null | Promise<AuthRecord | null>): Promise<AuthRecord | null> {
    return lockFile(path.join(this.directory, file), async () => {
      const current = await this.read(file);
      if (!current) return null;
      const next = await mutate(current.record);
      if (!next) return current.record;
      await this.writeNow(file, next);
      return next;
    });
  }

  /** Copies the file into backups/auth/ and removes it; answers the backup's path. */
  async remove(file: string): Promise<string> {
    return this.backup(file, true);
  }

  /**
   * Copies the file into backups/auth/ (answers the backup's path); `unlink` removes it too. A file
   * the running CLIProxyAPI owns is only copied here: the binary deletes it (binary-accounts.ts).
   */
  async backup(file: string, unlink = false): Promise<string> {
    const full = path.join(this.directory, file);
    return lockFile(full, async () => {
      const bytes = await readOwnFile(full, READ_LIMITS.authFile);
      const backup = await writeBackup(bytes, { backupsDir: this.paths.backupsAuthDir, home: this.paths.configDir, base: file.replace(/\.json$/, ''), suffix: '.json', keep: BACKUPS_KEPT });
      if (unlink) await this.unlinkNow(full);
      return backup;
    });
  }

  /** Removes the file without a backup (one was taken already). */
  async discard(file: string): Promise<void> {
    const full = path.join(this.directory, file);
    await lockFile(full, () => this.unlinkNow(full));
  }

  private async unlinkNow(full: string): Promise<void> {
    try {
      await fs.unlink(full);
    } catch (err) {
      if (!isNotFound(err)) throw err;
    }
  }

  private async writeNow(file: string, record: AuthRecord): Promise<void> {
    await writeFileAtomic(path.join(this.directory, file), `${JSON.stringify(record, null, 2)}\n`, { mode: 0o600, dirMode: 0o700 });
  }
}
