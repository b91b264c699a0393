import fs from 'node:fs/promises';
import path from 'node:path';
import YAML from 'yaml';
import { writeFileAtomic } from '../../infra/atomic-write.js';
import { isRecord } from '../../infra/json-checks.js';
import { findFreePort } from '../../infra/port-probe.js';
import { randomAlphanumeric } from '../../infra/random-text.js';

/** What the generated config is made of: the binary's port, its client key and its management secret. */
export interface CliproxyCredentials {
  port: number;
  apiKey: string;
  /** The plaintext management secret (the binary keeps only its bcrypt hash in config.yaml). */
  secret: string;
}

/** bcrypt hashes as the binary writes them back (reference cliproxy.md §1.1). */
const HASHED = /^\$2[aby]\$/;

/**
 * Switchboard's own copy of the binary's port, key and secret: proxy/cliproxy/credentials.json
 * (0600, replaced atomically). The real binary bcrypt-hashes a plaintext `remote-management.secret-key`
 * at start-up and writes the hash back into config.yaml, so config.yaml cannot be the store: the
 * config is generated from this file, never read back for the secret.
 */
export class CredentialsStore {
  private readonly file: string;
  /** One read-or-create at a time, so two first callers cannot write two different secrets. */
  private reading: Promise<CliproxyCredentials> | null = null;

  constructor(
    runDir: string,
    /** The generated config, read once to keep a running binary's port and key when this file is new. */
    private readonly legacyConfig: string,
  ) {
    this.file = path.join(runDir, 'credentials.json');
  }

  /** The stored credentials; written first (migrated from an older config.yaml, else fresh) when missing. */
  read(): Promise<CliproxyCredentials> {
    const run = (this.reading ??= this.readOrCreate().finally(() => (this.reading = null)));
    return run;
  }

  private async readOrCreate(): Promise<CliproxyCredentials> {
    const stored = await this.load();
    if (stored) return stored;
    const legacy = await this.fromLegacyConfig();
    const fresh: CliproxyCredentials = {
      port: legacy?.port ?? (await findFreePort()),
      apiKey: legacy?.apiKey ?? `sb-cliproxy-${randomAlphanumeric(32)}`,
      secret: legacy?.secret ?? randomAlphanumeric(32),
    };
    await writeFileAtomic(this.file, `${JSON.stringify(fresh, null, 2)}\n`, { mode: 0o600, dirMode: 0o700 });
    return fresh;
  }

  private async load(): Promise<CliproxyCredentials | null> {
    try {
      const parsed: unknown = JSON.parse(await fs.readFile(this.file, 'utf8'));
      if (!isRecord(parsed)) return null;
      const { port, apiKey, secret } = parsed;
      if (typeof port !== 'number' || !Number.isInteger(port) || port <= 0 || port > 65535) return null;
      if (typeof apiKey !== 'string' || apiKey === '' || typeof secret !== 'string' || secret === '') return null;
      return { port, apiKey, secret };
    } catch {
      return null; // missing or unreadable: written fresh
    }
  }

  /** An older Switchboard kept everything in config.yaml: its port and key carry over; a hashed secret cannot. */
  private async fromLegacyConfig(): Promise<Partial<CliproxyCredentials> | null> {
    try {
      const doc: unknown = YAML.parse(await fs.readFile(this.legacyConfig, 'utf8'));
      if (!isRecord(doc)) return null;
      const keys = doc['api-keys'];
      const mgmt = doc['remote-management'];
      const secret = isRecord(mgmt) ? mgmt['secret-key'] : undefined;
      return {
        ...(typeof doc.port === 'number' ? { port: doc.port } : {}),
        ...(Array.isArray(keys) && typeof keys[0] === 'string' ? { apiKey: keys[0] } : {}),
        ...(typeof secret === 'string' && secret !== '' && !HASHED.test(secret) ? { secret } : {}),
      };
    } catch {
      return null;
    }
  }
}
