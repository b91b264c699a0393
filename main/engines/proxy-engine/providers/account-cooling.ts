import type { AccountUpstream } from './account-upstream.js';

/** One account the engine is resting: `GET /v0/management/accounts` lists these. */
export interface CoolingAccount {
  provider: string;
  /** The auth file's name in proxy/auth/. */
  file: string;
  email: string;
  /** ISO time the account takes traffic again. */
  coolingUntil: string;
  /** Why: "quota exhausted", "signed out by the provider", "provider error", … ('' when not said). */
  reason: string;
}

/**
 * The accounts cooling down now, one row per auth file (a Copilot account is two upstreams; the
 * later of its two cooldowns counts), so the app's Accounts page can say "quota exhausted until 14:05".
 */
export function coolingAccounts(upstreams: readonly AccountUpstream[], now: number): CoolingAccount[] {
  const rows = new Map<string, { row: CoolingAccount; until: number }>();
  for (const upstream of upstreams) {
    // The binary rests its own accounts; the engine knows only the binary, not which account.
    if (upstream.via === 'cliproxy') continue;
    upstream.accounts.forEach((account, slot) => {
      const until = upstream.pool.cooledUntil(slot);
      if (until <= now) return;
      const seen = rows.get(account.file);
      if (seen && seen.until >= until) return;
      const row = { provider: upstream.name, file: account.file, email: account.email, coolingUntil: new Date(until).toISOString(), reason: upstream.pool.reason(slot) };
      rows.set(account.file, { row, until });
    });
  }
  return [...rows.values()].map((r) => r.row).sort((a, b) => (a.file < b.file ? -1 : 1));
}
