import { isTokenCount, type RequestLogEntry, type RequestOutcome, type TokenCounts } from './request-entry.js';

type Json = Record<string, unknown>;

const OUTCOMES: readonly RequestOutcome[] = ['ok', 'error', 'stream_error', 'aborted'];

/**
 * A request-log entry read back from outside the engine's memory (a line of `requests.jsonl`, a
 * line of the engine's stream), or null when any field is missing or of the wrong kind. The file
 * is the app's own, but a crash, a full disk, an older or newer engine or a hand edit can leave
 * anything in it, and one such line must cost that line only (issue 27 point 12), not the whole
 * history. Numbers follow the transcript rule: counts and times are non-negative safe integers.
 */
export function readLogEntry(value: unknown): RequestLogEntry | null {
  if (!isObject(value)) return null;
  const v = value;
  const tokens = v.tokens === null ? null : readTokens(v.tokens);
  const ok =
    typeof v.id === 'string' &&
    isTokenCount(v.time) &&
    (v.format === 'anthropic' || v.format === 'openai') &&
    typeof v.method === 'string' &&
    typeof v.path === 'string' &&
    isTextOrNull(v.modelRequested) &&
    isTextOrNull(v.modelSent) &&
    isTextOrNull(v.upstream) &&
    (v.keyIndex === null || isTokenCount(v.keyIndex)) &&
    isTokenCount(v.status) &&
    OUTCOMES.includes(v.outcome as RequestOutcome) &&
    isTokenCount(v.latencyMs) &&
    (v.ttfbMs === null || isTokenCount(v.ttfbMs)) &&
    tokens !== undefined &&
    isTextOrNull(v.session) &&
    isTextOrNull(v.error) &&
    isTextOrNull(v.errorLog) &&
    (v.account === undefined || isTextOrNull(v.account)) &&
    (v.via === undefined || v.via === 'cliproxy');
  if (!ok) return null;
  // Only the known fields, so nothing else a line carries reaches an answer.
  return {
    id: v.id as string,
    time: v.time as number,
    format: v.format as RequestLogEntry['format'],
    method: v.method as string,
    path: v.path as string,
    modelRequested: v.modelRequested as string | null,
    modelSent: v.modelSent as string | null,
    upstream: v.upstream as string | null,
    keyIndex: v.keyIndex as number | null,
    ...(typeof v.account === 'string' ? { account: v.account } : {}),
    ...(v.via === 'cliproxy' ? { via: 'cliproxy' as const } : {}),
    status: v.status as number,
    outcome: v.outcome as RequestOutcome,
    latencyMs: v.latencyMs as number,
    ttfbMs: v.ttfbMs as number | null,
    tokens,
    session: v.session as string | null,
    error: v.error as string | null,
    errorLog: v.errorLog as string | null,
  };
}

/** The four counts, or undefined when one is missing or not a count. */
function readTokens(value: unknown): TokenCounts | undefined {
  if (!isObject(value)) return undefined;
  const { input, output, cacheRead, cacheWrite } = value;
  if (!isTokenCount(input) || !isTokenCount(output) || !isTokenCount(cacheRead) || !isTokenCount(cacheWrite)) return undefined;
  return { input, output, cacheRead, cacheWrite };
}

function isObject(v: unknown): v is Json {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

function isTextOrNull(v: unknown): boolean {
  return v === null || typeof v === 'string';
}
