import type { AppEvents } from '../events.js';
import type { Clock } from '../../infra/clock.js';
import type { Logger } from '../../infra/logger.js';
import { errorMessage } from '../../infra/file-stat.js';
import type { AuthStore } from './auth-store.js';
import { ACCOUNT_PROVIDERS, providerOfType } from './providers.js';

/** One refresh per account at most this often, however many 401s the engine reports. */
export const REFRESH_ON_401_DEBOUNCE_MS = 60_000;

export interface RefreshOn401Deps {
  events: AppEvents;
  store: AuthStore;
  refresh: (file: string) => Promise<unknown>;
  clock: Clock;
  logger: Logger;
  debounceMs?: number;
}

/**
 * Issue 29.1, "refresh once on a 401": the engine (its own process) cannot refresh a token, so the
 * app watches the request feed. A finished request with status 401 that names an account (its
 * e-mail) refreshes that account's file once; further 401s of the same account within the debounce
 * window, or while its refresh runs, refresh nothing more.
 */
export class RefreshOn401 {
  private readonly recent = new Map<string, number>();
  private unsubscribe: (() => void) | undefined;

  constructor(private readonly deps: RefreshOn401Deps) {}

  start(): void {
    this.unsubscribe ??= this.deps.events.on('proxy-request', (entry) => void this.seen(entry));
  }

  stop(): void {
    this.unsubscribe?.();
    this.unsubscribe = undefined;
  }

  /** Resolves when the refresh it started (if any) ended; never throws. */
  async seen(entry: { status: number; upstream: string | null; account?: string | null }): Promise<void> {
    if (entry.status !== 401 || !entry.account) return;
    const key = `${entry.upstream ?? ''}\0${entry.account}`;
    const now = this.deps.clock.now();
    const last = this.recent.get(key);
    if (last !== undefined && now - last < (this.deps.debounceMs ?? REFRESH_ON_401_DEBOUNCE_MS)) return;
    this.recent.set(key, now);
    try {
      const file = await this.fileOf(entry.upstream, entry.account);
      if (!file) return;
      await this.deps.refresh(file);
    } catch (err) {
      // The refresher already marks the account `error` with the provider's reason.
      this.deps.logger.warn(`refresh after a 401 of ${entry.account} failed: ${errorMessage(err)}`);
    }
  }

  private async fileOf(upstream: string | null, email: string): Promise<string | null> {
    for (const stored of await this.deps.store.list()) {
      const provider = providerOfType(stored.record.type);
      if (!provider || stored.record.email !== email) continue;
      if (upstream === null || upstream === provider || !isProviderName(upstream)) return stored.file;
    }
    return null;
  }
}

/** The engine names an account upstream after its provider; any other name is not checked. */
function isProviderName(name: string): boolean {
  return (ACCOUNT_PROVIDERS as readonly string[]).includes(name);
}
