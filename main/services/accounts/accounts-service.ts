import YAML from 'yaml';
import { errorMessage } from '../../infra/file-stat.js';
import { isRecord } from '../../infra/json-checks.js';
import { readTextIfExists } from '../../infra/file-stat.js';
import type { ServiceContext } from '../context.js';
import { Acknowledgements, ACKNOWLEDGE_RISK } from './acknowledgements.js';
import { accountIdOf, NOTE_KEY, viewOf, type AccountView } from './account-view.js';
import { engineCooling, withCooling, type EngineEndpoint } from './engine-cooling.js';
import { AuthStore, type AuthRecord } from './auth-store.js';
import { BinaryAccounts, type CliproxyAccess } from './binary-accounts.js';
import { checkKiroOptions, type KiroBinary } from './kiro/kiro-binary-sign-in.js';
import { AccountsError } from './errors.js';
import { importAccount } from './importer.js';
import { createOutbound, type Outbound } from './outbound.js';
import { INVALID_PROVIDER_TEXT, isAccountProvider, PROVIDERS, providerOfType, type AccountProvider } from './providers.js';
import { Refresher } from './refresher.js';
import { RefreshOn401 } from './refresh-on-401.js';
import { SignIns, type SignInMethod, type SignInOptions, type SignInStart, type SignInState } from './sign-in.js';

export interface ProviderAccountsOptions {
  http?: Outbound;
  /** Called after the first sign-in of a provider: creates the profile `<provider>` unless one exists. */
  onFirstAccount?: (provider: AccountProvider) => Promise<void>;
  pollFloorMs?: number;
  /** Between Cloud Code onboardUser polls (agy, gemini); tests with a fake Google lower it. */
  onboardIntervalMs?: number;
  /** How often accounts are checked for a due refresh. */
  refreshCheckMs?: number;
  /** The running engine's management endpoint, to show which accounts it rests (quota exhausted until …). */
  engine?: EngineEndpoint;
  /** The managed CLIProxyAPI: Kiro signs in through it, and agy/kiro/gemini actions go through it while it runs. */
  cliproxy?: CliproxyAccess;
}

/**
 * The subscription accounts (decisions §4.1): one auth file each in proxy/auth/, listed with their
 * status; paused, resumed, removed (into backups/auth/), refreshed, signed in and imported.
 * Every change is an `account` event.
 */
export class ProviderAccountsService {
  readonly store: AuthStore;
  readonly refresher: Refresher;
  readonly signIns: SignIns;
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly ctx: ServiceContext,
    private readonly options: ProviderAccountsOptions = {},
  ) {
    this.store = new AuthStore(ctx.paths);
    const http = options.http ?? createOutbound(() => this.overrides());
    this.refresher = new Refresher({
      store: this.store,
      http,
      clock: ctx.clock,
      logger: ctx.logger,
      onChange: (file, error) => this.announce(error ? 'error' : 'refreshed', file, error),
    });
    this.signIns = new SignIns({
      http,
      clock: ctx.clock,
      overrides: () => this.overrides(),
      oauthPort: (provider) => this.oauthPort(provider),
      save: (provider, file, record) => this.save(provider, file, record),
      onState: (signInId, provider, state) => ctx.events.emit('account', { reason: 'sign-in', provider, signInId, ...state }),
      pollFloorMs: options.pollFloorMs,
      env: ctx.env,
      onboardIntervalMs: options.onboardIntervalMs,
    });
    this.http = http;
    this.binary = new BinaryAccounts(options.cliproxy);
    this.acknowledgements = new Acknowledgements(ctx.paths.configDir);
    this.on401 = new RefreshOn401({ events: ctx.events, store: this.store, refresh: (file) => this.refresher.refresh(file), clock: ctx.clock, logger: ctx.logger });
  }

  /** Refreshes an account once when the engine reports a 401 for it (issue 29.1). */
  readonly on401: RefreshOn401;

  private readonly http: Outbound;
  private readonly binary: BinaryAccounts;
  private readonly acknowledgements: Acknowledgements;

  /** Starts the refresh check (every minute unless told otherwise); the timer never keeps the process alive. */
  start(): void {
    this.on401.start();
    if (this.timer) return;
    this.timer = setInterval(() => void this.scheduledRefresh(), this.options.refreshCheckMs ?? 60_000);
    this.timer.unref();
  }

  /**
   * One tick of the refresh check. A user's own CLIProxyAPI (`proxy.binary_path`) refreshes the
   * files it loads itself, and codex refresh tokens are single-use: while one is configured,
   * Switchboard leaves scheduled refreshes to it (exactly one refresher per file, reference §1).
   */
  async scheduledRefresh(): Promise<void> {
    const binary = await this.ctx.appConfig.read().then((s) => s.config.proxy.binary_path, () => '');
    if (binary.trim() !== '') return;
    await this.refresher.refreshDue().catch((err: unknown) => this.ctx.logger.warn(`account refresh check failed: ${errorMessage(err)}`));
  }

  async stop(): Promise<void> {
    this.on401.stop();
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    await this.signIns.stop();
  }

  async list(): Promise<{ accounts: AccountView[] }> {
    const now = this.ctx.clock.now();
    const [stored, cooling] = await Promise.all([this.store.list(), engineCooling(this.options.engine)]);
    const accounts = stored.map((s) => viewOf(s, now)).filter((v): v is AccountView => v !== null);
    return { accounts: withCooling(accounts, cooling, now) };
  }

  async signIn(provider: string, method: SignInMethod | 'idc' | undefined, acknowledge = false, options: SignInOptions & { startUrl?: string; region?: string } = {}): Promise<SignInStart> {
    const p = this.provider(provider);
    const info = PROVIDERS[p];
    const risk = ACKNOWLEDGE_RISK[p];
    if (risk && !(await this.acknowledgements.has(p))) {
      if (!acknowledge) throw new AccountsError('acknowledgement-required', `${p}: ${risk}`, { provider: p });
      await this.acknowledgements.accept(p, this.ctx.clock.now());
    }
    if (!info.native) throw new AccountsError('sign-in-unavailable', `${p}: ${info.unavailable}`);
    if (p === 'kiro') return this.signInKiro(method, { startUrl: options.startUrl, region: options.region });
    if (method === 'idc') throw new AccountsError('invalid-method', `${p}: method "idc" (IAM Identity Center) is Kiro's`);
    return this.signIns.start(p, method ?? (p === 'ghcp' ? 'device' : 'browser'), options);
  }

  /** Kiro: AWS Builder ID device code (default) or IAM Identity Center, through the binary's management routes. */
  private async signInKiro(method: SignInMethod | 'idc' | undefined, idc: { startUrl?: string; region?: string }): Promise<SignInStart> {
    if (method !== undefined && method !== 'device' && method !== 'idc') throw new AccountsError('invalid-method', 'kiro signs in with method "device" (AWS Builder ID) or "idc" (IAM Identity Center)');
    const options = checkKiroOptions({ method: method ?? 'device', ...idc });
    const mgmt = await this.binary.started('kiro');
    const binary: KiroBinary = {
      management: async () => mgmt,
      kiroFiles: async () => new Map((await this.store.list()).filter((s) => s.record.type === 'kiro').map((s) => [s.file, s.mtime])),
      adopt: (file) => this.adopt('kiro', file),
    };
    return this.signIns.startKiro(binary, options);
  }

  signInStatus(id: string): SignInState {
    return this.signIns.status(id);
  }

  signInCallback(id: string, url: string): Promise<SignInState> {
    return this.signIns.callback(id, url);
  }

  cancelSignIn(id: string): SignInState {
    return this.signIns.cancel(id);
  }

  async importFrom(provider: string, path?: string): Promise<{ account: AccountView }> {
    const p = this.provider(provider);
    const { file, record } = await importAccount(p, { http: this.http, clock: this.ctx.clock, env: this.ctx.env }, path).catch((err: unknown) => {
      throw err instanceof AccountsError ? err : new AccountsError('provider-failed', errorMessage(err));
    });
    return { account: await this.save(p, file, record) };
  }

  async pause(provider: string, accountId: string): Promise<{ account: AccountView }> {
    return this.setDisabled(provider, accountId, true);
  }

  async resume(provider: string, accountId: string): Promise<{ account: AccountView }> {
    return this.setDisabled(provider, accountId, false);
  }

  async refresh(provider: string, accountId: string): Promise<{ account: AccountView }> {
    const file = await this.fileOf(provider, accountId);
    await this.refresher.refresh(file);
    return { account: await this.view(file) };
  }

  async remove(provider: string, accountId: string): Promise<{ removed: true; account: AccountView; backupPath: string }> {
    const file = await this.fileOf(provider, accountId);
    const account = await this.view(file);
    const mgmt = await this.binary.whileRunning(account.provider);
    // The backup comes first either way; the running binary then forgets and deletes the file itself.
    const backupPath = mgmt ? await this.store.backup(file) : await this.store.remove(file);
    if (mgmt && !(await this.binary.remove(mgmt, file))) await this.store.discard(file);
    this.refresher.forget(file);
    this.announce('removed', file, undefined, account);
    return { removed: true, account, backupPath };
  }

  /** Writes the account's `priority` (its place in the drain order, higher first; 0 removes the field). */
  async setPriority(provider: string, accountId: string, priority: number): Promise<{ account: AccountView }> {
    const file = await this.fileOf(provider, accountId);
    const mgmt = await this.binary.whileRunning(this.provider(provider));
    if (!mgmt || !(await this.binary.setPriority(mgmt, file, priority))) await this.store.update(file, (r) => {
      const { priority: _was, ...rest } = r;
      return priority === 0 ? rest : { ...rest, priority };
    });
    this.announce('priority', file);
    return { account: await this.view(file) };
  }

  private async setDisabled(provider: string, accountId: string, disabled: boolean): Promise<{ account: AccountView }> {
    const file = await this.fileOf(provider, accountId);
    const mgmt = await this.binary.whileRunning(this.provider(provider));
    if (!mgmt || !(await this.binary.setDisabled(mgmt, file, disabled))) await this.store.update(file, (r) => {
      const { disabled: _was, ...rest } = r;
      return disabled ? { ...rest, disabled: true } : rest;
    });
    this.announce(disabled ? 'paused' : 'resumed', file);
    return { account: await this.view(file) };
  }

  /** Writes a signed-in or imported account (a fresh start: no pause, no old error) and announces it. */
  private async save(provider: AccountProvider, file: string, record: AuthRecord): Promise<AccountView> {
    const first = (await this.list()).accounts.every((a) => a.provider !== provider);
    const { disabled: _d, [NOTE_KEY]: _n, ...clean } = record;
    await this.store.write(file, clean);
    this.refresher.forget(file);
    await this.retireOlderFiles(provider, file, clean);
    if (first && this.options.onFirstAccount) {
      await this.options.onFirstAccount(provider).catch((err: unknown) => this.ctx.logger.warn(`could not create the ${provider} profile: ${errorMessage(err)}`));
    }
    const account = await this.view(file);
    this.announce('signed-in', file, undefined, account);
    return account;
  }

  /** An account file the binary wrote (Kiro's sign-in): the first-account profile and the event, as `save` does. */
  private async adopt(provider: AccountProvider, file: string): Promise<AccountView> {
    const first = (await this.list()).accounts.every((a) => a.provider !== provider || a.file === file);
    if (first && this.options.onFirstAccount) {
      await this.options.onFirstAccount(provider).catch((err: unknown) => this.ctx.logger.warn(`could not create the ${provider} profile: ${errorMessage(err)}`));
    }
    const account = await this.view(file);
    this.announce('signed-in', file, undefined, account);
    return account;
  }

  /**
   * A codex file name carries the plan, so a plan change signs the same account in under a new
   * name: the older file of the same account (same account_id and e-mail) goes to backups/auth/.
   */
  private async retireOlderFiles(provider: AccountProvider, file: string, record: AuthRecord): Promise<void> {
    if (provider !== 'codex' || typeof record.account_id !== 'string' || record.account_id === '') return;
    for (const other of await this.store.list()) {
      if (other.file === file || other.record.type !== 'codex') continue;
      if (other.record.account_id === record.account_id && other.record.email === record.email) await this.store.remove(other.file);
    }
  }

  /** The file of an account: the one whose id (as the list shows it) matches, for this provider. */
  async fileOf(provider: string, accountId: string): Promise<string> {
    const p = this.provider(provider);
    if (accountId === '' || accountId.length > 320 || /[/\\\0]/.test(accountId) || accountId.includes('..')) throw new AccountsError('invalid-account');
    for (const stored of await this.store.list()) {
      if (providerOfType(stored.record.type) === p && accountIdOf(p, stored.record, stored.file) === accountId) return stored.file;
    }
    throw new AccountsError('account-not-found', `No ${p} account ${accountId} in ${this.store.directory}`);
  }

  private async view(file: string): Promise<AccountView> {
    const stored = await this.store.read(file);
    const view = stored ? viewOf(stored, this.ctx.clock.now()) : null;
    if (!view) throw new AccountsError('account-not-found', `${file} is no longer in ${this.store.directory}`);
    return view;
  }

  private announce(reason: string, file: string, error?: string, known?: AccountView): void {
    void (known ? Promise.resolve(known) : this.view(file))
      .then((account) => this.ctx.events.emit('account', { reason, provider: account.provider, account, ...(error ? { error } : {}) }))
      .catch(() => undefined);
  }

  private provider(value: string): AccountProvider {
    if (!isAccountProvider(value)) throw new AccountsError('invalid-provider', INVALID_PROVIDER_TEXT);
    return value;
  }

  private async overrides(): Promise<Record<string, string>> {
    return (await this.ctx.appConfig.read()).config.network.origin_overrides;
  }

  /** `providers.<p>.oauth_port` of proxy/config.yaml; absent or unreadable: the registered port. */
  private async oauthPort(provider: AccountProvider): Promise<number | undefined> {
    try {
      const parsed: unknown = YAML.parse((await readTextIfExists(this.ctx.paths.proxyConfig)) ?? '');
      const entry = isRecord(parsed) && isRecord(parsed.providers) ? parsed.providers[provider] : undefined;
      const port = isRecord(entry) ? entry.oauth_port : undefined;
      return typeof port === 'number' && Number.isInteger(port) && port > 0 && port < 65536 ? port : undefined;
    } catch {
      return undefined;
    }
  }
}
