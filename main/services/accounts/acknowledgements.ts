import fs from 'node:fs/promises';
import path from 'node:path';
import { writeFileAtomic } from '../../infra/atomic-write.js';
import { isRecord } from '../../infra/json-checks.js';
import type { AccountProvider } from './providers.js';

/** The risk a user accepts before the first sign-in of a provider (reference §0.2). */
export const ACKNOWLEDGE_RISK: Partial<Record<AccountProvider, string>> = {
  agy:
    'Antigravity accounts used through third-party tools get banned: CLIProxyAPI\'s maintainer calls a ban certain, and users report Terms-of-Service 403s within days. Use an account you can afford to lose, and confirm with {"acknowledge": true} (asked once).',
};

/**
 * Which providers' risks the user accepted, kept in `{config_dir}/accounts-acknowledged.json`
 * (`{"agy": "<ISO time>"}`), so the question is asked once.
 */
export class Acknowledgements {
  constructor(private readonly configDir: string) {}

  private get file(): string {
    return path.join(this.configDir, 'accounts-acknowledged.json');
  }

  async has(provider: AccountProvider): Promise<boolean> {
    return typeof (await this.read())[provider] === 'string';
  }

  async accept(provider: AccountProvider, at: number): Promise<void> {
    const current = await this.read();
    if (typeof current[provider] === 'string') return;
    await fs.mkdir(this.configDir, { recursive: true, mode: 0o700 });
    await writeFileAtomic(this.file, `${JSON.stringify({ ...current, [provider]: new Date(at).toISOString() }, null, 2)}\n`, { mode: 0o600 });
  }

  private async read(): Promise<Record<string, unknown>> {
    try {
      const parsed: unknown = JSON.parse(await fs.readFile(this.file, 'utf8'));
      return isRecord(parsed) ? parsed : {};
    } catch {
      return {};
    }
  }
}
