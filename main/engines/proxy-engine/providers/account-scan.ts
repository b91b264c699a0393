import fs from 'node:fs/promises';
import path from 'node:path';
import { ACCOUNT_MODELS } from '../../../infra/account-models.js';
import { READ_LIMITS, readTextBounded } from '../../../infra/bounded-read.js';
import { overrideOrigin, type OriginOverrides } from '../../../infra/origin-overrides.js';
import type { ProxyConfig } from '../config.js';
import { KeyPool } from '../traffic/key-pool.js';
import type { AccountProvider, AccountRef, AccountUpstream } from './account-upstream.js';
import { parseCliproxyAccount, type CliproxyProvider } from './cliproxy/auth-file.js';
import { parseCodexAccount } from './codex/auth-file.js';
import { parseCopilotAccount } from './ghcp/auth-file.js';
import { COPILOT_API_URL, CopilotTokens } from './ghcp/copilot-token.js';

/** The ChatGPT backend's Responses endpoint lives under this base (reference/accounts.md §4). */
export const CODEX_BASE_URL = 'https://chatgpt.com/backend-api/codex';

/** The auth files are looked at again at most this often: sign-ins, refreshes and pauses show within a second. */
const RESCAN_MS = 1000;

/** The one key of a CLIProxyAPI upstream's pool: a name, never sent (the real key is read per call). */
const CLIPROXY_SLOT = 'cliproxy';

export interface AccountScanContext {
  authDir: string;
  config: ProxyConfig;
  originOverrides: OriginOverrides;
  now: () => number;
}

type Found = { provider: AccountProvider; ref: AccountRef };

/**
 * Reads the accounts from `proxy/auth/` for routing. A listing plus one stat per file each second
 * at most; files are read again only when one changed (name, size or mtime). A file that cannot be
 * read or parsed, or is paused (`"disabled": true`), is skipped (the accounts service reports it);
 * it never fails a request.
 */
export class AccountScan {
  private upstreams: AccountUpstream[] = [];
  private signature = '';
  private scannedAt = -Infinity;
  private scanning: Promise<void> | undefined;
  readonly copilotTokens: CopilotTokens;

  constructor(private readonly ctx: AccountScanContext) {
    this.copilotTokens = new CopilotTokens(ctx.originOverrides, ctx.now);
  }

  /** The account upstreams, re-read when the last look is older than a second; concurrent callers share one look. */
  async current(): Promise<AccountUpstream[]> {
    if (this.ctx.now() - this.scannedAt >= RESCAN_MS) {
      this.scanning ??= this.scan().finally(() => {
        this.scanning = undefined;
        this.scannedAt = this.ctx.now();
      });
      await this.scanning;
    }
    return this.upstreams;
  }

  private async scan(): Promise<void> {
    const files = await listAuthFiles(this.ctx.authDir);
    const signature = files.map((f) => `${f.name}:${f.size}:${f.mtimeMs}`).join('\n');
    if (signature === this.signature) return;
    this.signature = signature;
    const found: Found[] = [];
    for (const f of files) {
      const account = await readAccount(path.join(this.ctx.authDir, f.name));
      if (account) found.push(account);
    }
    const byProvider = (p: AccountProvider): AccountRef[] => found.filter((a) => a.provider === p).map((a) => a.ref);
    const o = this.ctx.originOverrides;
    const codex = this.build('codex', 'responses', overrideOrigin(CODEX_BASE_URL, o), ACCOUNT_MODELS.codex.models, byProvider('codex'));
    // Copilot: one account list, two upstreams by wire format (Claude models natively).
    const ghcp = byProvider('ghcp');
    const claude = ACCOUNT_MODELS.ghcp.models.filter((m) => m.startsWith('claude-'));
    const others = ACCOUNT_MODELS.ghcp.models.filter((m) => !m.startsWith('claude-'));
    const copilotBase = overrideOrigin(COPILOT_API_URL, o);
    this.upstreams = [
      ...codex,
      ...this.build('ghcp', 'anthropic', copilotBase, claude, ghcp),
      ...this.build('ghcp', 'openai', copilotBase, others, ghcp),
      ...(['agy', 'kiro', 'gemini'] as const).flatMap((p) => this.viaCliproxy(p, byProvider(p).length)),
    ];
  }

  /**
   * agy, kiro and gemini go to the managed CLIProxyAPI in Anthropic format: one upstream per
   * provider with one slot, the binary (it rotates between the accounts itself). Its address is
   * read per call, so the base URL here is only a placeholder.
   */
  private viaCliproxy(provider: CliproxyProvider, accounts: number): AccountUpstream[] {
    if (this.ctx.config.providers[provider]?.enabled === false || accounts === 0) return [];
    const previous = this.upstreams.find((u) => u.name === provider);
    const pool = previous?.pool ?? new KeyPool([CLIPROXY_SLOT], this.ctx.config.routing.account_strategy);
    const binary: AccountRef = { file: '', email: 'CLIProxyAPI', token: '' };
    return [{ kind: 'account', via: 'cliproxy', name: provider, format: 'anthropic', base_url: 'http://127.0.0.1', models: [...ACCOUNT_MODELS[provider].models], api_key: [CLIPROXY_SLOT], accounts: [binary], pool }];
  }

  private build(provider: AccountProvider, format: AccountUpstream['format'], baseUrl: string, models: readonly string[], accounts: AccountRef[]): AccountUpstream[] {
    if (this.ctx.config.providers[provider]?.enabled === false || accounts.length === 0) return [];
    // Drain order: higher `priority` first (CLIProxyAPI's rule), then the file name.
    accounts.sort((a, b) => (b.priority ?? 0) - (a.priority ?? 0) || (a.file < b.file ? -1 : a.file > b.file ? 1 : 0));
    const keys = accounts.map((a) => a.token);
    const pool = new KeyPool(keys, this.ctx.config.routing.account_strategy);
    const previous = this.upstreams.find((u) => u.name === provider && u.format === format);
    if (previous) {
      // An account keeps its cooldown across a re-read (another account signed in, a pause
      // elsewhere), unless its token changed: a refreshed sign-in starts fresh.
      accounts.forEach((account, slot) => {
        const old = previous.accounts.findIndex((a) => a.file === account.file && a.token === account.token);
        if (old >= 0) pool.coolDownUntil(slot, previous.pool.cooledUntil(old), previous.pool.reason(old));
      });
    }
    return [{ kind: 'account', name: provider, format, base_url: baseUrl, models: [...models], api_key: keys, accounts, pool }];
  }
}

interface AuthFileStat {
  name: string;
  size: number;
  mtimeMs: number;
}

async function listAuthFiles(dir: string): Promise<AuthFileStat[]> {
  let names: string[];
  try {
    names = (await fs.readdir(dir)).filter((n) => n.endsWith('.json')).sort();
  } catch {
    return []; // no auth dir yet: no accounts
  }
  const out: AuthFileStat[] = [];
  for (const name of names) {
    try {
      const stat = await fs.lstat(path.join(dir, name));
      if (stat.isFile()) out.push({ name, size: stat.size, mtimeMs: stat.mtimeMs });
    } catch {
      // removed between the listing and the stat
    }
  }
  return out;
}

async function readAccount(file: string): Promise<Found | undefined> {
  let value: unknown;
  try {
    const handle = await fs.open(file, fs.constants.O_RDONLY | fs.constants.O_NONBLOCK | fs.constants.O_NOFOLLOW);
    try {
      if (!(await handle.stat()).isFile()) return undefined;
      value = JSON.parse(await readTextBounded(handle, READ_LIMITS.authFile, file));
    } finally {
      await handle.close();
    }
  } catch {
    return undefined;
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return undefined;
  const o = value as Record<string, unknown>;
  if (o.disabled === true) return undefined; // a paused account
  const name = path.basename(file);
  const priority = typeof o.priority === 'number' && Number.isFinite(o.priority) ? o.priority : 0;
  const codex = parseCodexAccount(name, o);
  if (codex) return { provider: 'codex', ref: { ...codex, priority } };
  const ghcp = parseCopilotAccount(name, o);
  if (ghcp) return { provider: 'ghcp', ref: { ...ghcp, priority } };
  return parseCliproxyAccount(name, o);
}
