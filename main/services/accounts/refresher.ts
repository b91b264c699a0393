import path from 'node:path';
import type { Clock } from '../../infra/clock.js';
import { errorMessage } from '../../infra/file-stat.js';
import type { Logger } from '../../infra/logger.js';
import { expiresAtOf, NOTE_KEY, noteOf, viewOf, type AccountNote } from './account-view.js';
import type { AuthRecord, AuthStore } from './auth-store.js';
import { CODEX, codexRecord, refreshCodex } from './codex/codex-oauth.js';
import { AccountsError, ProviderRefusal } from './errors.js';
import { fetchCopilotToken, GHCP, type CopilotToken } from './ghcp/ghcp-auth.js';
import type { Outbound } from './outbound.js';
import { providerOfType } from './providers.js';
import { RefreshBusyError, withRefreshLock } from './refresh-lock.js';

/** After a refresh failed for a passing reason (network, 5xx), the schedule waits this long. */
export const RETRY_AFTER_FAILURE_MS = 15 * 60_000;

export interface RefresherDeps {
  store: AuthStore;
  http: Outbound;
  clock: Clock;
  logger: Logger;
  /** Told after a refresh changed a file, or failed (`error` set). */
  onChange: (file: string, error?: string) => void;
}

/**
 * Keeps accounts signed in (decisions §4.1): refreshes ahead of expiry (the provider's lead) and
 * once after a 401, as the only refresher of each file (refresh-lock.ts). A failure is written
 * into the file as the account's `error` with the provider's reason; a fatal one (a reused or
 * revoked refresh token) says "sign in again" and is never retried.
 */
export class Refresher {
  private readonly copilot = new Map<string, CopilotToken>();

  constructor(private readonly deps: RefresherDeps) {}

  /**
   * Refreshes `file` now. `onlyIfToken`: the access token the caller saw refused; when the file
   * already holds another one, someone refreshed it meanwhile and that one is answered instead.
   */
  async refresh(file: string, options: { onlyIfToken?: string; onlyIfDue?: boolean } = {}): Promise<AuthRecord> {
    const stored = await this.deps.store.read(file);
    if (!stored) throw new AccountsError('account-not-found', `${file} is not in ${this.deps.store.directory}`);
    const provider = providerOfType(stored.record.type);
    if (provider === 'codex') return this.refreshCodexFile(file, options);
    if (provider === 'ghcp') {
      await this.copilotToken(file, { force: true });
      return (await this.deps.store.read(file))?.record ?? stored.record;
    }
    throw new AccountsError('sign-in-unavailable', `${String(stored.record.type)} accounts are refreshed by the CLIProxyAPI binary, not by Switchboard`);
  }

  /** Every codex account whose token expires within the lead (or has expired), not paused, not signed out. */
  async refreshDue(): Promise<void> {
    const now = this.deps.clock.now();
    for (const stored of await this.deps.store.list()) {
      const view = viewOf(stored, now);
      if (!view || view.provider !== 'codex' || view.status === 'paused') continue;
      const note = noteOf(stored.record);
      if (note.needs_sign_in || (note.last_error_at !== undefined && now - note.last_error_at < RETRY_AFTER_FAILURE_MS)) continue;
      // No known expiry: nothing to schedule; a 401 refreshes it (withToken).
      if (view.expiresAt === null || view.expiresAt - now > CODEX.refreshLeadMs) continue;
      await this.refresh(stored.file, { onlyIfDue: true }).catch((err: unknown) => this.deps.logger.warn(`refresh of ${stored.file} failed: ${errorMessage(err)}`));
    }
  }

  /**
   * Runs one provider call with the account's token; on a 401 refreshes once and calls again
   * (never more: a second 401 is the provider's answer).
   */
  async withToken<T extends { status: number }>(file: string, call: (record: AuthRecord) => Promise<T>): Promise<T> {
    const stored = await this.deps.store.read(file);
    if (!stored) throw new AccountsError('account-not-found', `${file} is not in ${this.deps.store.directory}`);
    const first = await call(stored.record);
    if (first.status !== 401) return first;
    const token = typeof stored.record.access_token === 'string' ? stored.record.access_token : undefined;
    const fresh = await this.refresh(file, { onlyIfToken: token });
    return call(fresh);
  }

  /** The Copilot API token of a ghcp account: cached, renewed 5 minutes before it expires. */
  async copilotToken(file: string, options: { force?: boolean } = {}): Promise<CopilotToken> {
    const cached = this.copilot.get(file);
    if (!options.force && cached && cached.expiresAt - this.deps.clock.now() > GHCP.renewLeadMs) return cached;
    const stored = await this.deps.store.read(file);
    const githubToken = stored?.record.access_token;
    if (typeof githubToken !== 'string') throw new AccountsError('account-not-found', `${file} has no GitHub token`);
    try {
      const token = await fetchCopilotToken(this.deps.http, githubToken);
      this.copilot.set(file, token);
      await this.writeResult(file, (r) => ({ ...r, api_token_expires_at: Math.floor(token.expiresAt / 1000) }));
      return token;
    } catch (err) {
      this.copilot.delete(file);
      throw await this.fail(file, err);
    }
  }

  forget(file: string): void {
    this.copilot.delete(file);
  }

  private async refreshCodexFile(file: string, options: { onlyIfToken?: string; onlyIfDue?: boolean }): Promise<AuthRecord> {
    try {
      return await this.refreshCodexLocked(file, options);
    } catch (err) {
      if (err instanceof RefreshBusyError) throw new AccountsError('refresh-busy', `${err.message}; try again in a moment`);
      throw err;
    }
  }

  private refreshCodexLocked(file: string, options: { onlyIfToken?: string; onlyIfDue?: boolean }): Promise<AuthRecord> {
    return withRefreshLock(path.join(this.deps.store.directory, file), async () => {
      // Re-read under the lock: another process may have refreshed (and used up the old token).
      const current = await this.deps.store.read(file);
      if (!current) throw new AccountsError('account-not-found', `${file} is not in ${this.deps.store.directory}`);
      const record = current.record;
      if (options.onlyIfToken !== undefined && record.access_token !== options.onlyIfToken) return record;
      const expiresAt = expiresAtOf(record);
      if (options.onlyIfDue && expiresAt !== null && expiresAt - this.deps.clock.now() > CODEX.refreshLeadMs) return record;
      if (typeof record.refresh_token !== 'string' || record.refresh_token === '') {
        throw await this.fail(file, new ProviderRefusal('codex', 'the auth file has no refresh_token: sign in again', null, true));
      }
      let next: AuthRecord;
      try {
        const tokens = await refreshCodex(this.deps.http, record.refresh_token);
        next = codexRecord(tokens, this.deps.clock.now(), record).record;
      } catch (err) {
        throw await this.fail(file, err);
      }
      return (await this.writeResult(file, () => next)) ?? next;
    });
  }

  /** Writes a successful result (clearing any earlier error) and tells the service. */
  private async writeResult(file: string, mutate: (r: AuthRecord) => AuthRecord): Promise<AuthRecord | null> {
    const written = await this.deps.store.update(file, (r) => withoutNote(mutate(r)));
    this.deps.onChange(file);
    return written;
  }

  /** Records the failure in the file as the account's error; answers the error to throw. */
  private async fail(file: string, err: unknown): Promise<Error> {
    const refusal = err instanceof ProviderRefusal ? err : null;
    const message = errorMessage(err);
    const note: AccountNote = { last_error: message, last_error_at: this.deps.clock.now(), ...(refusal?.fatal ? { needs_sign_in: true } : {}) };
    await this.deps.store.update(file, (r) => ({ ...r, [NOTE_KEY]: note })).catch(() => null);
    this.deps.onChange(file, message);
    return refusal ? new AccountsError('provider-failed', `${refusal.provider}: ${message}`) : err instanceof Error ? err : new Error(message);
  }
}

function withoutNote(record: AuthRecord): AuthRecord {
  const { [NOTE_KEY]: _dropped, ...rest } = record;
  return rest;
}
