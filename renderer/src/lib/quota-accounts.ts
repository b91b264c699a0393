import type { Quota, QuotaEntry } from '../api-types.js';

/** Auth file prefix → quota provider (decisions §4). */
const TYPE_TO_PROVIDER: Record<string, string> = {
  antigravity: 'agy',
  gemini: 'gemini',
  codex: 'codex',
  'github-copilot': 'ghcp',
  kiro: 'kiro',
  iflow: 'iflow',
};
export const QUOTA_UNITS: Record<string, string> = { agy: '%', gemini: '%', codex: '%', ghcp: 'requests', kiro: 'credits', iflow: '' };

export interface QuotaAccount {
  provider: string;
  accountId: string;
}

/** The accounts whose quota can be asked, from the auth files' names (`codex-me@x.com.json`). */
export function accountsFrom(names: string[]): QuotaAccount[] {
  const out: QuotaAccount[] = [];
  for (const name of names) {
    const base = name.replace(/\.json$/, '');
    const type = Object.keys(TYPE_TO_PROVIDER).find((t) => base.startsWith(`${t}-`));
    if (type) out.push({ provider: TYPE_TO_PROVIDER[type]!, accountId: base.slice(type.length + 1) });
  }
  return out;
}

/** Used share of a window, 0–1 (a window without a limit counts as unused). */
export function usedShare(q: Pick<QuotaEntry, 'used' | 'limit'>): number {
  return q.limit > 0 ? q.used / q.limit : 0;
}

/** The window closest to its limit: the one a user runs into first. */
export function worstWindow<Q extends Pick<QuotaEntry, 'used' | 'limit'>>(quotas: Q[]): Q | null {
  let worst: Q | null = null;
  for (const q of quotas) if (!worst || usedShare(q) > usedShare(worst)) worst = q;
  return worst;
}

export interface AccountQuota {
  account: QuotaAccount;
  quota?: Quota;
  error?: unknown;
}

export interface ProviderQuota {
  provider: string;
  accounts: AccountQuota[];
  worst: { window: QuotaEntry; accountId: string } | null;
}

/** Each provider's worst window across its accounts; failures stay with their provider. */
export function groupByProvider(results: AccountQuota[]): ProviderQuota[] {
  const byProvider = new Map<string, AccountQuota[]>();
  for (const r of results) byProvider.set(r.account.provider, [...(byProvider.get(r.account.provider) ?? []), r]);
  return [...byProvider].map(([provider, accounts]) => {
    let worst: ProviderQuota['worst'] = null;
    for (const a of accounts) {
      const w = a.quota ? worstWindow(a.quota.quotas) : null;
      if (w && (!worst || usedShare(w) > usedShare(worst.window))) worst = { window: w, accountId: a.account.accountId };
    }
    return { provider, accounts, worst };
  });
}
