import type { RequestEntry, RequestFilters } from '../../api-types.js';

/**
 * Pure helpers of the Traffic view: the same filter the server applies (so live rows obey the
 * filters the table was loaded with) and the words each outcome is shown with.
 */
export interface TrafficFilters {
  status: string;
  model: string;
  upstream: string;
}
export const NO_FILTERS: TrafficFilters = { status: '', model: '', upstream: '' };

/** The status filter's choices, as GET /api/proxy/requests takes them. */
export const STATUS_CHOICES: Array<{ value: string; label: string }> = [
  { value: '', label: 'Any status' },
  { value: 'ok', label: 'Succeeded' },
  { value: 'error', label: 'Failed (any)' },
  { value: '4xx', label: '4xx' },
  { value: '5xx', label: '5xx' },
];

/**
 * A failure is an error answer or a stream that broke after it started, as the server counts it;
 * a client that hung up (`aborted`, 499) is neither a failure nor a success.
 */
export function isFailure(e: Pick<RequestEntry, 'outcome'>): boolean {
  return e.outcome === 'error' || e.outcome === 'stream_error';
}

export function matchesFilters(e: RequestEntry, f: TrafficFilters): boolean {
  const status = f.status.trim().toLowerCase();
  if (status === 'ok' && (isFailure(e) || e.outcome === 'aborted')) return false;
  if (status === 'error' && !isFailure(e)) return false;
  if (/^[1-5]xx$/.test(status) && Math.floor(e.status / 100) !== Number(status[0])) return false;
  if (/^\d{3}$/.test(status) && e.status !== Number(status)) return false;
  const model = f.model.trim();
  if (model && e.modelRequested !== model && e.modelSent !== model) return false;
  const upstream = f.upstream.trim();
  if (upstream && e.upstream !== upstream) return false;
  return true;
}

export function toQuery(f: TrafficFilters, limit: number): RequestFilters {
  return { status: f.status.trim() || undefined, model: f.model.trim() || undefined, upstream: f.upstream.trim() || undefined, limit };
}

export function hasFilters(f: TrafficFilters): boolean {
  return Boolean(f.status.trim() || f.model.trim() || f.upstream.trim());
}

/** "asked → sent", or one name when the proxy sent what was asked. */
export function modelLabel(e: Pick<RequestEntry, 'modelRequested' | 'modelSent'>): string {
  const asked = e.modelRequested ?? '—';
  if (!e.modelSent || e.modelSent === e.modelRequested) return asked;
  return `${asked} → ${e.modelSent}`;
}

export function outcomeLabel(e: Pick<RequestEntry, 'status' | 'outcome'>): { kind: 'ok' | 'bad' | 'warn' | 'off'; text: string } {
  if (e.outcome === 'stream_error') return { kind: 'bad', text: `${e.status} · stream failed` };
  if (e.outcome === 'aborted') return { kind: 'off', text: 'client closed' };
  if (isFailure(e)) return { kind: 'bad', text: String(e.status) };
  return { kind: 'ok', text: String(e.status) };
}

export function formatMs(ms: number | null | undefined): string {
  if (ms == null) return '—';
  if (ms < 1000) return `${Math.round(ms)} ms`;
  return `${(ms / 1000).toFixed(ms < 10_000 ? 2 : 1)} s`;
}

export function clockTime(ms: number): string {
  return new Date(ms).toLocaleTimeString(undefined, { hour: '2-digit', minute: '2-digit', second: '2-digit' });
}

export function minuteLabel(ms: number): string {
  return new Date(ms).toLocaleTimeString(undefined, { hour: '2-digit', minute: '2-digit' });
}

export function percent(rate: number | null | undefined): string {
  if (rate == null) return '—';
  if (rate > 0 && rate < 0.001) return '<0.1%';
  return `${(rate * 100).toFixed(rate < 0.1 ? 1 : 0)}%`;
}

/** Adds live entries on top, newest first, without duplicates, at most `limit` rows. */
export function mergeNewest(top: RequestEntry[], rows: RequestEntry[], limit: number): RequestEntry[] {
  const seen = new Set<string>();
  const out: RequestEntry[] = [];
  for (const e of [...top, ...rows]) {
    if (seen.has(e.id)) continue;
    seen.add(e.id);
    out.push(e);
    if (out.length >= limit) break;
  }
  return out;
}

/** A live event's payload, if it is a request entry (anything else is ignored). */
export function asEntry(data: unknown): RequestEntry | null {
  if (!data || typeof data !== 'object') return null;
  const e = data as Partial<RequestEntry>;
  return typeof e.id === 'string' && typeof e.time === 'number' && typeof e.status === 'number' ? (e as RequestEntry) : null;
}

/** One request's cost: cents hide most of them, so small costs keep four decimals. */
export function requestCost(usd: number | null | undefined): string {
  if (usd == null) return '—';
  if (usd === 0) return '$0';
  if (usd < 0.0001) return '<$0.0001';
  return usd < 1 ? `$${usd.toFixed(4)}` : `$${usd.toFixed(2)}`;
}
