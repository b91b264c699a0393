/**
 * A codex account as the engine needs it, from its auth file in CLIProxyAPI's format
 * (reference/accounts.md §4): `{"type":"codex","access_token","account_id","email","disabled"?,…}`.
 * The app's accounts service owns the file and its refresh; the engine only reads it.
 */
export interface CodexAccount {
  file: string;
  email: string;
  accountId: string;
  accessToken: string;
}

export function parseCodexAccount(file: string, value: unknown): CodexAccount | undefined {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return undefined;
  const o = value as Record<string, unknown>;
  if (o.type !== 'codex' || o.disabled === true) return undefined;
  const accessToken = typeof o.access_token === 'string' ? o.access_token : '';
  if (accessToken === '') return undefined; // an account with no token yet cannot serve
  return {
    file,
    email: typeof o.email === 'string' ? o.email : file,
    accountId: typeof o.account_id === 'string' ? o.account_id : '',
    accessToken,
  };
}
