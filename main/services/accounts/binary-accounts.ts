import { ManagementError, type ManagementClient } from '../cliproxy/management-client.js';
import { AccountsError } from './errors.js';
import type { AccountProvider } from './providers.js';

/** What the accounts room needs of the managed CLIProxyAPI (cliproxy/cliproxy-service.ts). */
export interface CliproxyAccess {
  isInstalled(): Promise<boolean>;
  isRunning(): Promise<boolean>;
  ensureRunning(): Promise<unknown>;
  readonly management: ManagementClient;
}

/** The providers whose files the binary loads and refreshes (decisions §4.1); codex and ghcp stay with the engine. */
export const BINARY_PROVIDERS: ReadonlySet<AccountProvider> = new Set(['agy', 'kiro', 'gemini']);

export const INSTALL_HINT = 'Install it first: dashboard Proxy → CLIProxyAPI → Install, or `switchboard cliproxy install --backend plus`';

/**
 * Account actions on the binary's files while it runs. The binary keeps its accounts in memory and
 * writes them back, so a direct write to a file it loaded is clobbered (reference accounts.md §9.3):
 * pause, resume, priority and remove go through its `auth-files` routes then. Each action answers
 * false when the binary does not know the file (or the route), and the caller writes on disk.
 */
export class BinaryAccounts {
  constructor(private readonly access: CliproxyAccess | undefined) {}

  /** The management client when `provider`'s files belong to a running binary; null: act on disk. */
  async whileRunning(provider: AccountProvider): Promise<ManagementClient | null> {
    if (!this.access || !BINARY_PROVIDERS.has(provider)) return null;
    return (await this.access.isRunning()) ? this.access.management : null;
  }

  /** For a sign-in through the binary: installed (else 409 with how to install), then started. */
  async started(provider: AccountProvider): Promise<ManagementClient> {
    if (!this.access || !(await this.access.isInstalled())) throw new AccountsError('binary-not-installed', `${provider} signs in through the managed CLIProxyAPI (Plus build), which is not installed. ${INSTALL_HINT}`);
    await this.access.ensureRunning().catch((err: unknown) => {
      throw new AccountsError('provider-failed', `CLIProxyAPI did not start: ${err instanceof Error ? err.message : String(err)}`);
    });
    return this.access.management;
  }

  setDisabled(mgmt: ManagementClient, file: string, disabled: boolean): Promise<boolean> {
    return attempt(() => mgmt.request('PATCH', 'auth-files/status', { body: { name: file, disabled } }));
  }

  setPriority(mgmt: ManagementClient, file: string, priority: number): Promise<boolean> {
    return attempt(() => mgmt.request('PATCH', 'auth-files/fields', { body: { name: file, priority } }));
  }

  remove(mgmt: ManagementClient, file: string): Promise<boolean> {
    return attempt(() => mgmt.request('DELETE', 'auth-files', { query: { name: file } }));
  }
}

async function attempt(call: () => Promise<unknown>): Promise<boolean> {
  try {
    await call();
    return true;
  } catch (err) {
    if (err instanceof ManagementError && err.status === 404) return false;
    if (err instanceof ManagementError) throw new AccountsError('provider-failed', err.message);
    throw err;
  }
}
