import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { writeFileAtomic } from '../../infra/atomic-write.js';
import { lockFile } from '../../infra/file-lock.js';
import { readTextIfExists } from '../../infra/file-stat.js';
import { ensureOwnDir } from '../../infra/no-follow.js';
import { parseStoredCredentials, type BridgeCredentials } from './credentials.js';

export interface CredentialFiles {
  /** {config_dir}/cursor */
  dir: string;
  credentials: string;
  daemonToken: string;
}

/**
 * The bridge's secrets on disk: credentials.json and the daemon client token. The directory is
 * kept at 0700 and both files at 0600 even when they existed before with wider modes.
 */
export class CredentialsStore {
  constructor(private readonly files: CredentialFiles) {}

  async read(): Promise<BridgeCredentials | null> {
    const text = await readTextIfExists(this.files.credentials);
    if (text === null) return null;
    try {
      return parseStoredCredentials(JSON.parse(text));
    } catch {
      return null;
    }
  }

  async write(creds: BridgeCredentials): Promise<void> {
    await this.ensureDir();
    const body = JSON.stringify(creds, null, 2) + '\n';
    await lockFile(this.files.credentials, () => writeFileAtomic(this.files.credentials, body, { mode: 0o600, dirMode: 0o700 }));
  }

  /** The token clients of the daemon must send; created (random, 0600) the first time it is needed. */
  async daemonToken(): Promise<string> {
    return lockFile(this.files.daemonToken, async () => {
      const existing = (await readTextIfExists(this.files.daemonToken))?.trim();
      if (existing && existing.length >= 32) return existing;
      await this.ensureDir();
      const token = `sb-bridge-${randomBytes(24).toString('hex')}`;
      await writeFileAtomic(this.files.daemonToken, token + '\n', { mode: 0o600, dirMode: 0o700 });
      return token;
    });
  }

  /** The token if it exists, without creating one (read-only callers such as `status`). */
  async existingDaemonToken(): Promise<string | null> {
    return (await readTextIfExists(this.files.daemonToken))?.trim() || null;
  }

  private async ensureDir(): Promise<void> {
    // cursor/ sits directly in {config_dir}: a link there is replaced, so the chmod below (and the
    // secrets written next) never reach a directory outside the home.
    await ensureOwnDir(this.files.dir, path.dirname(this.files.dir));
    // mkdir leaves an existing directory's mode alone; secrets live here, so narrow it.
    await fs.chmod(this.files.dir, 0o700);
  }
}
