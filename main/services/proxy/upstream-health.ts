import type { Upstream } from '../../engines/proxy-engine/config.js';
import { upstreamKeys } from '../../engines/proxy-engine/config.js';
import { isErrorEntry, type RequestLogEntry } from '../../engines/proxy-engine/traffic/request-entry.js';

/** One upstream of proxy/config.yaml with its recent health, from the request log (issue 30, point 4). */
export interface UpstreamHealth {
  name: string;
  format: 'openai' | 'anthropic';
  baseUrl: string;
  models: string[];
  keyCount: number;
  /** Requests it served in the window (client hang-ups left out). */
  requests: number;
  errors: number;
  /** Share of those requests that succeeded; null without requests. */
  successRate: number | null;
  medianLatencyMs: number | null;
  lastError: { status: number; at: number; message: string | null } | null;
  /** Its last FAILING_RUN requests all failed: marked in the page. */
  failing: boolean;
  /** Keys (0-based, as the request log counts them) cooling down after a 429 or 5xx, and until when. */
  coolingKeys: Array<{ index: number; until: number }>;
}

export const HEALTH_WINDOW_MS = 60 * 60 * 1000;
export const FAILING_RUN = 3;

/**
 * Health per upstream from request-log entries (newest first, as the log answers them). A key
 * "cools" as the engine's key pool does: after a 429 or 5xx answer, for `cooldownSeconds`.
 * Pure: the same input gives the same table, whatever the clock of the machine.
 */
export function upstreamHealth(upstreams: Upstream[], entries: RequestLogEntry[], now: number, cooldownSeconds: number): UpstreamHealth[] {
  const since = now - HEALTH_WINDOW_MS;
  return upstreams.map((u) => {
    const mine = entries.filter((e) => e.upstream === u.name && e.time >= since && e.outcome !== 'aborted');
    const failures = mine.filter(isErrorEntry);
    const latencies = mine.filter((e) => !isErrorEntry(e)).map((e) => e.latencyMs);
    const last = failures[0];
    const recent = mine.slice(0, FAILING_RUN);
    return {
      name: u.name,
      format: u.format,
      baseUrl: u.base_url,
      models: u.models,
      keyCount: upstreamKeys(u).length,
      requests: mine.length,
      errors: failures.length,
      successRate: mine.length === 0 ? null : (mine.length - failures.length) / mine.length,
      medianLatencyMs: median(latencies),
      lastError: last ? { status: last.status, at: last.time, message: last.error } : null,
      failing: recent.length === FAILING_RUN && recent.every(isErrorEntry),
      coolingKeys: coolingKeys(mine, now, cooldownSeconds),
    };
  });
}

function coolingKeys(entries: RequestLogEntry[], now: number, cooldownSeconds: number): Array<{ index: number; until: number }> {
  const latest = new Map<number, RequestLogEntry>();
  for (const e of entries) if (e.keyIndex !== null && !latest.has(e.keyIndex)) latest.set(e.keyIndex, e);
  const out: Array<{ index: number; until: number }> = [];
  for (const [index, e] of latest) {
    const cools = e.status === 429 || e.status >= 500;
    const until = e.time + e.latencyMs + cooldownSeconds * 1000;
    if (cools && until > now) out.push({ index, until });
  }
  return out.sort((a, b) => a.index - b.index);
}

export function median(values: number[]): number | null {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid]! : Math.round((sorted[mid - 1]! + sorted[mid]!) / 2);
}
