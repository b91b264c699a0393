import type { AccountRef } from '../account-upstream.js';

/**
 * A codex account as the engine needs it, from its auth file in CLIProxyAPI's format
 * (reference/accounts.md §4): `{"type":"codex","access_token","account_id","email","disabled"?,…}`.
 * The app's accounts service owns the file and its refresh; the engine only reads it.
 */
export function parseCodexAccount(file: string, o: Record<string, unknown>): AccountRef | undefined {
  if (o.type !== 'codex') return undefined;
  const token = typeof o.access_token === 'string' ? o.access_token : '';
  if (token === '') return undefined; // an account with no token yet cannot serve
  return { file, email: typeof o.email === 'string' ? o.email : file, token, accountId: typeof o.account_id === 'string' ? o.account_id : '' };
}
