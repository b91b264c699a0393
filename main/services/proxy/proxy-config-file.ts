import { parseProxyConfig, ProxyConfigError } from '../../engines/proxy-engine/config.js';
import { writeFileAtomic } from '../../infra/atomic-write.js';
import { writeBackup } from '../../infra/backup.js';
import { FileTooLargeError, READ_LIMITS, readTextBounded } from '../../infra/bounded-read.js';
import type { Clock } from '../../infra/clock.js';
import { lockFile } from '../../infra/file-lock.js';
import { FileLockBusyError } from '../../infra/inter-process-lock.js';
import { errorMessage, isNotFound } from '../../infra/file-stat.js';
import { advanceMtime } from '../../infra/mtime-advance.js';
import { readOwnText } from '../../infra/no-follow.js';
import type { Paths } from '../../infra/paths.js';
import { addressOfText, type ProxyAddress } from '../profiles/proxy-address.js';
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
  /** Profiles rewritten because the proxy's address changed (decisions §2). */
  updatedProfiles: string[];
}

/** Told when a write moves the proxy to another host or port; answers the profiles it rewrote. */
export type AddressChangeHook = (from: ProxyAddress, to: ProxyAddress) => Promise<string[]>;

/**
 * proxy/config.yaml as text for GET/PUT /api/proxy/config.yaml. A PUT is validated with the
 * engine's own schema, so the file never holds something the engine would refuse; writes share
 * the file lock with the tokens service, which rewrites the `auth` keys of the same file.
 */
export class ProxyConfigFile {
  constructor(
    private readonly paths: Paths,
    private readonly clock: Clock,
    private readonly onAddressChange: AddressChangeHook = async () => [],
    /** Told after every write (the managed CLIProxyAPI follows the routing settings); its failure is only logged. */
    private readonly onWritten: () => Promise<unknown> = async () => undefined,
  ) {}

  async read(): Promise<ProxyConfigText> {
    const current = await readCurrent(this.paths.proxyConfig);
    if (!current) throw new ProxyError('config-not-found');
    return { ...current, path: this.paths.proxyConfig };
  }

  /** `expectedMtime` null: the caller saw no file; undefined: no check. */
  async write(content: string, expectedMtime?: number | null): Promise<ProxyConfigWrite> {
    const file = this.paths.proxyConfig;
    let to: ProxyAddress;
    try {
      const parsed = parseProxyConfig(content, 'config.yaml');
      to = { host: parsed.server.host, port: parsed.server.port };
    } catch (err) {
      if (err instanceof ProxyConfigError) throw new ProxyError('invalid-yaml', err.message);
      throw err;
    }
    const { written, from } = await lockFile(file, async () => {
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
        const written = { success: true as const, path: file, mtime, ...(backupPath ? { backupPath } : {}) };
        return { written, from: before ? addressOrNull(before.content) : null };
      } catch (err) {
        throw new ProxyError('write-failed', errorMessage(err));
      }
    }).catch((err: unknown) => {
      if (err instanceof FileLockBusyError) throw new ProxyError('write-failed', err.message);
      throw err;
    });
    // Outside the file's lock: the hook writes profile files, never this one.
    const updatedProfiles = from ? await this.onAddressChange(from, to) : [];
    await this.onWritten().catch(() => undefined);
    return { ...written, updatedProfiles };
  }
}

async function readCurrent(file: string): Promise<{ content: string; mtime: number } | null> {
  try {
    const { text, mtime } = await readOwnText(file, READ_LIMITS.config);
    return { content: text, mtime };
  } catch (err) {
    if (isNotFound(err)) return null;
    if (err instanceof FileTooLargeError) throw new ProxyError('file-too-large', `${err.message}: replace ${file} by hand`);
    throw err;
  }
}

/** The address the previous file named; null when it could not be parsed (nothing to follow). */
function addressOrNull(text: string): ProxyAddress | null {
  try {
    return addressOfText(text);
  } catch {
    return null;
  }
}
