import { isRecord } from '../../../infra/json-checks.js';

// The adapters take the JSON check from here with the rest of their toolkit.
export { isRecord };

/** One quota line of the spec's quota object (2.6); `resetAt` null when the provider gives none. */
export interface QuotaEntry {
  model: string;
  limit: number;
  used: number;
  remaining: number;
  resetAt: number | null;
}

export type QuotaUnit = 'percent' | 'requests' | 'credits' | 'none';

export interface QuotaResult {
  provider: string;
  accountId: string;
  /** What limit/used/remaining count (decisions §4). */
  unit: QuotaUnit;
  quotas: QuotaEntry[];
}

/** An auth file's parsed JSON. */
export type AuthRecord = Record<string, unknown>;

/** Calls a provider endpoint and returns its JSON; throws QuotaFetchError with a readable message. */
export type QuotaHttp = (url: string, init: { method: 'GET' | 'POST'; headers: Record<string, string>; body?: unknown }) => Promise<unknown>;

export interface QuotaAdapterInput {
  auth: AuthRecord;
  /** Bare origin from `proxy.quota_endpoints.<provider>`, without a trailing slash. */
  baseUrl: string;
  now: number;
  http: QuotaHttp;
}

export type QuotaAdapter = (input: QuotaAdapterInput) => Promise<QuotaEntry[]>;

/** The provider could not be asked, or answered something unusable. */
export class QuotaFetchError extends Error {}

/** Percent-unit entry from a remaining fraction 0..1. */
export function percentEntry(model: string, remainingFraction: number, resetAt: number | null): QuotaEntry {
  const remaining = clamp(Math.round(remainingFraction * 100), 0, 100);
  return { model, limit: 100, used: 100 - remaining, remaining, resetAt };
}

export function clamp(value: number, min: number, max: number): number {
  return Math.min(max, Math.max(min, value));
}

/** ms since epoch of an ISO date, or null. */
export function isoToMs(value: unknown): number | null {
  if (typeof value !== 'string' || value === '') return null;
  const ms = Date.parse(value);
  return Number.isFinite(ms) ? ms : null;
}

export function num(value: unknown): number | undefined {
  if (typeof value === 'number' && Number.isFinite(value)) return value;
  if (typeof value === 'string' && value.trim() !== '' && Number.isFinite(Number(value))) return Number(value);
  return undefined;
}

/** The OAuth access token of an auth file: top level (most providers) or under `token` (Gemini CLI). */
export function accessToken(auth: AuthRecord): string {
  const token = auth.access_token ?? (isRecord(auth.token) ? auth.token.access_token : undefined);
  if (typeof token !== 'string' || token === '') throw new QuotaFetchError('the auth file has no access_token');
  return token;
}

export function byModel(a: QuotaEntry, b: QuotaEntry): number {
  return a.model < b.model ? -1 : a.model > b.model ? 1 : 0;
}
