import type { TrayMenuItem } from './tray-menu.js';

/** What the tray knows about subscription accounts, from GET /api/accounts. */
export interface TrayAccount {
  provider: string;
  label: string;
  status: string;
  lastError?: string;
}

/**
 * The Accounts submenu (decisions §4.1, issue 29): one line per account with its status (an error
 * with the provider's reason, shortened), then "Sign in…", which opens the Accounts page. Pure.
 * Absent (undefined) when the source does not read accounts; null when they could not be read.
 */
export function accountItems(accounts: TrayAccount[] | null | undefined): TrayMenuItem[] {
  if (accounts === undefined) return [];
  const signIn: TrayMenuItem = { type: 'normal', label: 'Sign in…', enabled: true, action: 'open-accounts' };
  const lines: TrayMenuItem[] =
    accounts === null
      ? [{ type: 'normal', label: 'Accounts unavailable', enabled: false }]
      : accounts.length === 0
        ? [{ type: 'normal', label: 'No accounts signed in', enabled: false }]
        : accounts.map((a) => ({ type: 'normal', label: accountLine(a), enabled: false }));
  const attention = accounts?.filter((a) => a.status === 'error' || a.status === 'expired').length ?? 0;
  const title = attention > 0 ? `Accounts (${attention} need${attention === 1 ? 's' : ''} attention)` : 'Accounts';
  return [{ type: 'submenu', label: title, enabled: true, items: [...lines, { type: 'separator' }, signIn] }];
}

/**
 * `codex · me@x.com (plus) · active`; an error adds its reason. The accounts CLIProxyAPI serves
 * (agy, kiro, gemini) read the same way; iflow's service shut down, so its files say so.
 */
export function accountLine(a: TrayAccount): string {
  if (a.provider === 'iflow') return `${a.provider} · ${a.label} · discontinued`;
  const base = `${a.provider} · ${a.label} · ${a.status}`;
  if (a.status !== 'error' || !a.lastError) return base;
  const reason = a.lastError.split('\n')[0]!;
  return `${base}: ${reason.length > 50 ? `${reason.slice(0, 49).trimEnd()}…` : reason}`;
}
