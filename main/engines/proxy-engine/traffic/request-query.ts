import { isErrorEntry, type RequestLogEntry } from './request-entry.js';

/**
 * Filters and per-minute counts of the request log, pure so the engine (its ring) and the
 * management side (the jsonl history of a stopped engine) answer the same questions the same way.
 */
export type StatusFilter = { kind: 'ok' } | { kind: 'error' } | { kind: 'code'; code: number } | { kind: 'class'; hundreds: number };

export interface RequestFilter {
  status?: StatusFilter;
  /** Matches the model asked for or the model sent. */
  model?: string;
  upstream?: string;
  /** ms since epoch; entries at or after it. */
  since?: number;
  limit: number;
}

export const DEFAULT_REQUEST_LIMIT = 100;
export const MAX_REQUEST_LIMIT = 1000;

export type FilterParse = { ok: true; filter: RequestFilter } | { ok: false; field: string; message: string };

/** Reads `status`, `model`, `upstream`, `since`, `limit` from query values; names the first bad field. */
export function parseRequestFilter(get: (name: string) => string | undefined): FilterParse {
  const filter: RequestFilter = { limit: DEFAULT_REQUEST_LIMIT };
  const status = get('status');
  if (status !== undefined && status !== '') {
    const parsed = parseStatus(status);
    if (!parsed) return { ok: false, field: 'status', message: 'status must be ok, error, a 3-digit status code, 4xx or 5xx' };
    filter.status = parsed;
  }
  const model = get('model');
  if (model) filter.model = model;
  const upstream = get('upstream');
  if (upstream) filter.upstream = upstream;
  const since = get('since');
  if (since !== undefined && since !== '') {
    const ms = /^\d+$/.test(since) ? Number(since) : Date.parse(since);
    if (!Number.isSafeInteger(ms) || !/^\d+$|^\d{4}-\d{2}-\d{2}/.test(since)) {
      return { ok: false, field: 'since', message: 'since must be ms since the epoch or an ISO 8601 date-time' };
    }
    filter.since = ms;
  }
  const limit = get('limit');
  if (limit !== undefined && limit !== '') {
    const n = Number(limit);
    if (!/^\d+$/.test(limit) || n < 1 || n > MAX_REQUEST_LIMIT) return { ok: false, field: 'limit', message: `limit must be an integer from 1 to ${MAX_REQUEST_LIMIT}` };
    filter.limit = n;
  }
  return { ok: true, filter };
}

function parseStatus(text: string): StatusFilter | undefined {
  const s = text.toLowerCase();
  if (s === 'ok' || s === 'error') return { kind: s };
  if (/^[1-5]\d\d$/.test(s)) return { kind: 'code', code: Number(s) };
  if (/^[1-5]xx$/.test(s)) return { kind: 'class', hundreds: Number(s[0]) };
  return undefined;
}

/** The filter back as query text, for passing it on to the engine. */
export function filterQuery(filter: RequestFilter): string {
  const q = new URLSearchParams();
  const s = filter.status;
  if (s) q.set('status', s.kind === 'code' ? String(s.code) : s.kind === 'class' ? `${s.hundreds}xx` : s.kind);
  if (filter.model) q.set('model', filter.model);
  if (filter.upstream) q.set('upstream', filter.upstream);
  if (filter.since !== undefined) q.set('since', String(filter.since));
  q.set('limit', String(filter.limit));
  return q.toString();
}

export function matchesFilter(e: RequestLogEntry, f: RequestFilter): boolean {
  if (f.since !== undefined && e.time < f.since) return false;
  if (f.upstream !== undefined && e.upstream !== f.upstream) return false;
  if (f.model !== undefined && e.modelRequested !== f.model && e.modelSent !== f.model) return false;
  const s = f.status;
  if (!s) return true;
  switch (s.kind) {
    case 'ok':
      return !isErrorEntry(e) && e.outcome !== 'aborted';
    case 'error':
      return isErrorEntry(e);
    case 'code':
      return e.status === s.code;
    case 'class':
      return Math.floor(e.status / 100) === s.hundreds;
  }
}

/** Matching entries of a newest-first sequence: the first `limit`, and how many matched in all. */
export function selectEntries(newestFirst: Iterable<RequestLogEntry>, f: RequestFilter): { requests: RequestLogEntry[]; total: number } {
  const requests: RequestLogEntry[] = [];
  let total = 0;
  for (const e of newestFirst) {
    if (!matchesFilter(e, f)) continue;
    total++;
    if (requests.length < f.limit) requests.push(e);
  }
  return { requests, total };
}

export interface MinuteCount {
  /** ms since epoch, the start of the minute. */
  minute: number;
  requests: number;
  errors: number;
}

export const MINUTE_MS = 60_000;
/** The last 60 whole minutes plus the current one. */
export const STATS_MINUTES = 61;

/** Per-minute counts over the last hour, oldest first, zeros filled. */
export class MinuteCounter {
  private readonly counts = new Map<number, MinuteCount>();

  add(e: Pick<RequestLogEntry, 'time' | 'outcome'>): void {
    const minute = Math.floor(e.time / MINUTE_MS) * MINUTE_MS;
    let c = this.counts.get(minute);
    if (!c) {
      c = { minute, requests: 0, errors: 0 };
      this.counts.set(minute, c);
      this.prune(minute);
    }
    c.requests++;
    if (isErrorEntry(e)) c.errors++;
  }

  series(now: number): MinuteCount[] {
    const current = Math.floor(now / MINUTE_MS) * MINUTE_MS;
    const out: MinuteCount[] = [];
    for (let i = STATS_MINUTES - 1; i >= 0; i--) {
      const minute = current - i * MINUTE_MS;
      const c = this.counts.get(minute);
      out.push(c ? { ...c } : { minute, requests: 0, errors: 0 });
    }
    return out;
  }

  private prune(latest: number): void {
    for (const minute of this.counts.keys()) if (minute < latest - STATS_MINUTES * MINUTE_MS) this.counts.delete(minute);
  }
}

export interface RequestStats<E = RequestLogEntry> {
  perMinute: MinuteCount[];
  /** Over the last 5 minutes (the 5 whole ones and the elapsed part of the current one). */
  requestsPerMinute: number;
  /** 0–1 over the last 60 minutes; null when there were no requests. */
  errorRate: number | null;
  lastError: E | null;
}

/** The stats answer from the per-minute series (oldest first, current minute last). */
export function requestStats<E>(perMinute: MinuteCount[], now: number, lastError: E | null): RequestStats<E> {
  const recent = perMinute.slice(-6);
  const elapsed = (now % MINUTE_MS) / MINUTE_MS;
  const span = recent.length - 1 + elapsed;
  const recentRequests = recent.reduce((n, c) => n + c.requests, 0);
  const requests = perMinute.reduce((n, c) => n + c.requests, 0);
  const errors = perMinute.reduce((n, c) => n + c.errors, 0);
  return {
    perMinute,
    requestsPerMinute: span > 0 ? Math.round((recentRequests / span) * 100) / 100 : recentRequests,
    errorRate: requests === 0 ? null : errors / requests,
    lastError,
  };
}
