import { isRecord } from '../../infra/json-checks.js';
import type { AuthRecord, StoredAuth } from './auth-store.js';
import { PROVIDERS, providerOfType, type AccountProvider } from './providers.js';

export type AccountStatus = 'active' | 'paused' | 'expired' | 'error';

/** One entry of GET /api/accounts (decisions §4.1). */
export interface AccountView {
  provider: AccountProvider;
  accountId: string;
  email: string | null;
  label: string;
  status: AccountStatus;
  expiresAt: number | null;
  lastRefresh: number | null;
  lastError?: string;
  models: string[];
  file: string;
  /** The file's `priority` (CLIProxyAPI's field): higher drains first; 0 when absent. */
  priority: number;
  /** ms until which the running engine rests the account (its quota reset, a sign-out…); absent when it takes traffic. */
  coolingUntil?: number;
  /** Why it rests: "quota exhausted", "signed out by the provider", "provider error", … */
  coolingReason?: string;
}

/** Where Switchboard keeps its own notes inside an auth file (CLIProxyAPI ignores unknown keys). */
export const NOTE_KEY = 'switchboard';

export interface AccountNote {
  last_error?: string;
  last_error_at?: number;
  /** The provider signed the account out (a reused or revoked token): no retry, sign in again. */
  needs_sign_in?: boolean;
}

/** The account an auth file holds; null for a file of an unknown type. */
export function viewOf(stored: StoredAuth, now: number): AccountView | null {
  const { record, file } = stored;
  const provider = providerOfType(record.type);
  if (!provider) return null;
  const email = str(record.email) ?? null;
  const expiresAt = expiresAtOf(record);
  const note = noteOf(record);
  const status: AccountStatus = record.disabled === true ? 'paused' : note.last_error ? 'error' : expiresAt !== null && expiresAt <= now ? 'expired' : 'active';
  return {
    provider,
    accountId: accountIdOf(provider, record, file),
    email,
    label: labelOf(provider, record, email),
    status,
    expiresAt,
    lastRefresh: lastRefreshOf(record),
    ...(note.last_error ? { lastError: note.last_error } : {}),
    models: PROVIDERS[provider].models,
    file,
    priority: typeof record.priority === 'number' && Number.isFinite(record.priority) ? record.priority : 0,
  };
}

/**
 * The id the quota route takes (decisions §4): the login for Copilot (its files are
 * `github-copilot-<login>.json`), else the e-mail, else the file name without `<type>-`.
 */
export function accountIdOf(provider: AccountProvider, record: AuthRecord, file: string): string {
  if (provider === 'ghcp' && str(record.username)) return str(record.username)!;
  const email = str(record.email);
  if (email) return email;
  const stem = file.replace(/\.json$/, '');
  const prefix = `${PROVIDERS[provider].type}-`;
  return stem.startsWith(prefix) ? stem.slice(prefix.length) : stem;
}

function labelOf(provider: AccountProvider, record: AuthRecord, email: string | null): string {
  if (provider === 'ghcp') return str(record.username) ?? email ?? 'GitHub account';
  const plan = str(record.plan_type) ?? planOfIdToken(record.id_token);
  return [email ?? str(record.account_id) ?? PROVIDERS[provider].label, plan ? `(${plan})` : null].filter(Boolean).join(' ');
}

/** ms of the access token's expiry: `expired` (RFC 3339), `expires_at`, Gemini's `token.expiry`, else the JWT's `exp`. */
export function expiresAtOf(record: AuthRecord): number | null {
  for (const value of [record.expired, record.expires_at, isRecord(record.token) ? record.token.expiry : undefined]) {
    const ms = toMs(value);
    if (ms !== null) return ms;
  }
  const exp = jwtClaims(record.access_token)?.exp;
  return typeof exp === 'number' ? exp * 1000 : null;
}

export function lastRefreshOf(record: AuthRecord): number | null {
  return toMs(record.last_refresh) ?? toMs(record.timestamp);
}

export function noteOf(record: AuthRecord): AccountNote {
  const note = record[NOTE_KEY];
  if (!isRecord(note)) return {};
  return { last_error: str(note.last_error), last_error_at: typeof note.last_error_at === 'number' ? note.last_error_at : undefined, needs_sign_in: note.needs_sign_in === true };
}

/** The payload of a JWT, decoded without verifying it (the reference: codex reads its id_token so). */
export function jwtClaims(token: unknown): Record<string, unknown> | null {
  if (typeof token !== 'string') return null;
  const part = token.split('.')[1];
  if (!part) return null;
  try {
    const parsed: unknown = JSON.parse(Buffer.from(part, 'base64url').toString('utf8'));
    return isRecord(parsed) ? parsed : null;
  } catch {
    return null;
  }
}

function planOfIdToken(idToken: unknown): string | undefined {
  const auth = jwtClaims(idToken)?.['https://api.openai.com/auth'];
  return isRecord(auth) ? str(auth.chatgpt_plan_type) : undefined;
}

function toMs(value: unknown): number | null {
  if (typeof value === 'number' && Number.isFinite(value) && value > 0) return value < 1e12 ? value * 1000 : value;
  if (typeof value === 'string' && value !== '') {
    const ms = Date.parse(value);
    return Number.isFinite(ms) ? ms : null;
  }
  return null;
}

function str(value: unknown): string | undefined {
  return typeof value === 'string' && value !== '' ? value : undefined;
}
