import path from 'node:path';
import type { ParsedUsage, UsageRecord } from './types.js';

/**
 * Places a parsed line in its file. The de-duplication key is `message.id` + `requestId`
 * (decisions §5). A line with a message id but no request id is keyed by session + message id +
 * timestamp, the key of `ccusage claude daily`, whose daily tokens the contract requires us to
 * equal: split lines of one message logged at different instants all count. Lines without a
 * message id get no key.
 */
export function toUsageRecord(parsed: ParsedUsage, file: string, offset: number): UsageRecord {
  const sessionId = parsed.sessionId ?? sessionFromPath(file);
  return {
    agent: 'claude',
    extraTokens: 0,
    pricedOnlyTokens: 0,
    key: dedupKey(parsed.messageId, parsed.requestId, sessionId, parsed.timestamp),
    timestamp: parsed.timestamp,
    model: parsed.model,
    inputTokens: parsed.inputTokens,
    outputTokens: parsed.outputTokens,
    cacheWrite5mTokens: parsed.cacheWrite5mTokens,
    cacheWrite1hTokens: parsed.cacheWrite1hTokens,
    cacheReadTokens: parsed.cacheReadTokens,
    sidechain: parsed.sidechain,
    fast: parsed.fast,
    sessionId,
    projectPath: parsed.cwd,
    version: parsed.version,
    file,
    offset,
    cost: 0,
    loggedCost: parsed.loggedCost,
  };
}

/**
 * `timestamp` is the instant in epoch ms, not the text as logged: ccusage 20.0.24 compares
 * instants (observed: `…T10:00:00Z`, `…T10:00:00.000Z` and `…T11:00:00.000+01:00` are one timestamp to it),
 * and the accepted shapes carry at most milliseconds, so nothing finer is lost.
 */
export function dedupKey(messageId: string | null, requestId: string | null, sessionId: string, timestamp: number): string | null {
  if (messageId === null) return null;
  if (requestId !== null) return `${messageId}\u0000${requestId}`;
  return `\u0001${sessionId}\u0000${messageId}\u0000${timestamp}`;
}

/** Session of a line that names none: the `<id>` folder of `<id>/subagents/…`, else the file stem. */
export function sessionFromPath(file: string): string {
  const parts = file.split(/[\\/]/);
  const at = parts.lastIndexOf('subagents');
  if (at > 0) return parts[at - 1]!;
  return path.basename(file).replace(/\.jsonl$/i, '');
}

export function cacheWriteTokens(r: Pick<UsageRecord, 'cacheWrite5mTokens' | 'cacheWrite1hTokens'>): number {
  return r.cacheWrite5mTokens + r.cacheWrite1hTokens;
}

/** input + output + cache write + cache read: the size that picks among duplicates. */
export function tokenTotal(r: UsageRecord): number {
  return r.inputTokens + r.outputTokens + r.cacheWrite5mTokens + r.cacheWrite1hTokens + r.cacheReadTokens;
}
