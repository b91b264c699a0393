import { parseProxyConfig, ProxyConfigError } from '../../engines/proxy-engine/config.js';
import { writeFileAtomic } from '../../infra/atomic-write.js';
import { writeBackup } from '../../infra/backup.js';
import type { Clock } from '../../infra/clock.js';
import { serializeFile } from '../../infra/file-lock.js';
import { errorMessage, isNotFound } from '../../infra/file-stat.js';
import { advanceMtime } from '../../infra/mtime-advance.js';
import { readOwnText } from '../../infra/no-follow.js';
import type { Paths } from '../../infra/paths.js';
import { PROXY_CONFIG_BACKUP } from '../tokens/proxy-auth-sync.js';
import { ProxyError } from './errors.js';

export interface ProxyConfigText {
  content: string;
  mtime: number;
  path: string;
}

export interface ProxyConfigWrite {
  success: true;
  path: string;
  mtime: number;
  backupPath?: string;
}

/**
 * proxy/config.yaml as text for GET/PUT /api/proxy/config.yaml. A PUT is validated with the
 * engine's own schema, so the file never holds something the engine would refuse; writes share
 * the file lock with the tokens service, which rewrites the `auth` keys of the same file.
 */
export class ProxyConfigFile {
  constructor(
    private readonly paths: Paths,
    private readonly clock: Clock,
  ) {}

  async read(): Promise<ProxyConfigText> {
    const current = await readCurrent(this.paths.proxyConfig);
    if (!current) throw new ProxyError('config-not-found');
    return { ...current, path: this.paths.proxyConfig };
  }

  /** `expectedMtime` null: the caller saw no file; undefined: no check. */
  async write(content: string, expectedMtime?: number | null): Promise<ProxyConfigWrite> {
    const file = this.paths.proxyConfig;
    try {
      parseProxyConfig(content, 'config.yaml');
    } catch (err) {
      if (err instanceof ProxyConfigError) throw new ProxyError('invalid-yaml', err.message);
      throw err;
    }
    return serializeFile(file, async () => {
      const before = await readCurrent(file);
      if (expectedMtime !== undefined && (before?.mtime ?? null) !== expectedMtime) {
        throw new ProxyError('conflict', 'proxy/config.yaml changed since it was read', before?.mtime);
      }
      try {
        let backupPath: string | undefined;
        if (before && before.content !== content) {
          backupPath = await writeBackup(before.content, { backupsDir: this.paths.backupsDir, home: this.paths.configDir, ...PROXY_CONFIG_BACKUP, now: new Date(this.clock.now()) });
        }
        await writeFileAtomic(file, content, { mode: 0o600, dirMode: 0o700 });
        const mtime = await advanceMtime(file, before?.mtime ?? null);
        return { success: true as const, path: file, mtime, ...(backupPath ? { backupPath } : {}) };
      } catch (err) {
        throw new ProxyError('write-failed', errorMessage(err));
      }
    });
  }
}

async function readCurrent(file: string): Promise<{ content: string; mtime: number } | null> {
  try {
    const { text, mtime } = await readOwnText(file);
    return { content: text, mtime };
  } catch (err) {
    if (isNotFound(err)) return null;
    throw err;
  }
}
