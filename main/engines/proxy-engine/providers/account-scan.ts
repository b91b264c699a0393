import fs from 'node:fs/promises';
import path from 'node:path';
import { ACCOUNT_MODELS } from '../../../infra/account-models.js';
import { READ_LIMITS, readTextBounded } from '../../../infra/bounded-read.js';
import { overrideOrigin, type OriginOverrides } from '../../../infra/origin-overrides.js';
import type { ProxyConfig } from '../config.js';
import { KeyPool } from '../traffic/key-pool.js';
import type { AccountUpstream } from './account-upstream.js';
import { parseCodexAccount, type CodexAccount } from './codex/auth-file.js';

/** The ChatGPT backend's Responses endpoint lives under this base (reference/accounts.md §4). */
export const CODEX_BASE_URL = 'https://chatgpt.com/backend-api/codex';

/** The auth files are looked at again at most this often: sign-ins, refreshes and pauses show within a second. */
const RESCAN_MS = 1000;

export interface AccountScanContext {
  authDir: string;
  config: ProxyConfig;
  originOverrides: OriginOverrides;
  now: () => number;
}

/**
 * Reads the accounts from `proxy/auth/` for routing. A listing plus one stat per file each second
 * at most; files are read again only when one changed (name, size or mtime). A file that cannot
 * be read or parsed is skipped (the accounts service reports it); it never fails a request.
 */
export class AccountScan {
  private upstreams: AccountUpstream[] = [];
  private signature = '';
  private scannedAt = -Infinity;
  private scanning: Promise<void> | undefined;

  constructor(private readonly ctx: AccountScanContext) {}

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
    const accounts: CodexAccount[] = [];
    for (const f of files) {
      const account = await readAccount(path.join(this.ctx.authDir, f.name));
      if (account) accounts.push(account);
    }
    this.upstreams = this.build(accounts);
  }

  private build(accounts: CodexAccount[]): AccountUpstream[] {
    if (this.ctx.config.providers.codex?.enabled === false || accounts.length === 0) return [];
    accounts.sort((a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : 0));
    const keys = accounts.map((a) => a.accessToken);
    const pool = new KeyPool(keys);
    const previous = this.upstreams.find((u) => u.name === 'codex');
    if (previous) {
      // An account keeps its cooldown across a re-read (a refresh rewrote its token, another account signed in).
      accounts.forEach((account, slot) => {
        const old = previous.accounts.findIndex((a) => a.file === account.file);
        if (old >= 0) pool.coolDownUntil(slot, previous.pool.cooledUntil(old));
      });
    }
    return [
      {
        kind: 'account',
        name: 'codex',
        format: 'responses',
        base_url: overrideOrigin(CODEX_BASE_URL, this.ctx.originOverrides),
        models: [...ACCOUNT_MODELS.codex.models],
        api_key: keys,
        accounts,
        pool,
      },
    ];
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

async function readAccount(file: string): Promise<CodexAccount | undefined> {
  try {
    const handle = await fs.open(file, fs.constants.O_RDONLY | fs.constants.O_NONBLOCK | fs.constants.O_NOFOLLOW);
    try {
      if (!(await handle.stat()).isFile()) return undefined;
      return parseCodexAccount(path.basename(file), JSON.parse(await readTextBounded(handle, READ_LIMITS.authFile, file)));
    } finally {
      await handle.close();
    }
  } catch {
    return undefined;
  }
}
