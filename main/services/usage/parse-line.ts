import { parseIsoTimestamp } from './timestamp.js';
import type { ParsedUsage } from './types.js';
import { isRecord } from '../../infra/json-checks.js';

/** `none`: a well-formed line without request usage; `malformed`: damaged or invalid, counted. */
export type LineOutcome = ParsedUsage | 'none' | 'malformed';

type Json = Record<string, unknown>;

/** One JSONL line → the usage it records (decisions §5), or why it records none. */
export function parseUsageLine(text: string): LineOutcome {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return 'malformed';
  }
  return usageOf(value);
}

/**
 * A line counts when it has `message.usage` with non-negative integer input and output tokens
 * and a valid timestamp. Claude Code 2.1 `progress` lines carry a subagent's message one level
 * down (`data.message`); they are read too, and de-duplicate against the subagent transcript.
 * Fields present with the wrong type (null included) make the line invalid, as in ccusage.
 */
export function usageOf(value: unknown): LineOutcome {
  if (!isRecord(value)) return 'malformed';
  const source = usageSource(value);
  if (!source) return 'none';
  const message = source.message as Json;
  const usage = message.usage as Json;
  const inputTokens = tokenCount(usage.input_tokens, false);
  const outputTokens = tokenCount(usage.output_tokens, false);
  const cacheCreation = tokenCount(usage.cache_creation_input_tokens, true);
  const cacheReadTokens = tokenCount(usage.cache_read_input_tokens, true);
  const split = cacheWriteSplit(usage.cache_creation, cacheCreation);
  const timestamp = typeof source.timestamp === 'string' ? parseIsoTimestamp(source.timestamp) : NaN;
  const messageId = optionalText(message.id);
  const requestId = optionalText(source.requestId);
  const model = optionalText(message.model);
  const sessionId = optionalText(value.sessionId);
  const version = optionalText(value.version);
  const loggedCost = optionalCost(source.costUSD);
  if (
    Number.isNaN(inputTokens + outputTokens + cacheCreation + cacheReadTokens + timestamp) ||
    split === null ||
    messageId === undefined ||
    requestId === undefined ||
    model === undefined ||
    sessionId === undefined ||
    version === undefined ||
    loggedCost === undefined ||
    (version !== null && !/^\d+\.\d+\.\d+/.test(version))
  ) {
    return 'malformed';
  }
  return {
    messageId,
    requestId,
    timestamp,
    model,
    inputTokens,
    outputTokens,
    cacheWrite5mTokens: split[0],
    cacheWrite1hTokens: split[1],
    cacheReadTokens,
    sidechain: source.isSidechain === true,
    fast: usage.speed === 'fast',
    sessionId,
    cwd: typeof value.cwd === 'string' ? value.cwd : null,
    version,
    loggedCost,
  };
}

function usageSource(line: Json): Json | null {
  if (hasUsage(line)) return line;
  if (line.type === 'progress' && isRecord(line.data) && isRecord(line.data.message) && hasUsage(line.data.message)) {
    return line.data.message;
  }
  return null;
}

function hasUsage(obj: Json): boolean {
  return isRecord(obj.message) && isRecord(obj.message.usage);
}

/**
 * Cache-write tokens: the 5-minute and 1-hour parts of `usage.cache_creation` when that object
 * is present (`cache_creation_input_tokens` is then ignored), else all of
 * `cache_creation_input_tokens` as 5-minute writes. null = invalid.
 */
function cacheWriteSplit(detail: unknown, total: number): [number, number] | null {
  if (detail === undefined || detail === null) return [total, 0];
  if (!isRecord(detail)) return null;
  const fiveMinutes = tokenCount(detail.ephemeral_5m_input_tokens, true);
  const oneHour = tokenCount(detail.ephemeral_1h_input_tokens, true);
  return Number.isNaN(fiveMinutes + oneHour) ? null : [fiveMinutes, oneHour];
}

/** A non-negative integer; absent optional counts are 0; NaN marks an invalid value. */
function tokenCount(value: unknown, optional: boolean): number {
  if (value === undefined && optional) return 0;
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= 0 ? value : NaN;
}

/**
 * The most one logged request may cost. The dearest real request (a million-token context on the
 * dearest model, with its answer) costs tens of dollars; a transcript's `costUSD: 1e308` is not a
 * cost but an attack on the sums (two of them add up to Infinity, which JSON answers as null and
 * the terminal printed as `$∞`). docs/hardening.md ("Numbers from outside").
 */
export const MAX_LOGGED_COST_USD = 10_000;

/**
 * Absent → null; a finite non-negative number up to MAX_LOGGED_COST_USD → itself; anything else
 * (null included) → undefined (invalid line, as in ccusage, counted in `malformedLines`).
 */
function optionalCost(value: unknown): number | null | undefined {
  if (value === undefined) return null;
  return typeof value === 'number' && Number.isFinite(value) && value >= 0 && value <= MAX_LOGGED_COST_USD ? value : undefined;
}

/** Absent → null; a non-empty string → itself; anything else → undefined (invalid line). */
function optionalText(value: unknown): string | null | undefined {
  if (value === undefined) return null;
  return typeof value === 'string' && value.length > 0 ? value : undefined;
}
