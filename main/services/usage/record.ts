import path from 'node:path';
import type { ParsedUsage, UsageRecord } from './types.js';

/**
 * Places a parsed line in its file. The de-duplication key is `message.id` + `requestId`
 * (decisions §5). A line with a message id but no request id is keyed by session + message id,
 * as ccusage's monthly and session reports do, so the partial lines Claude Code writes for one
 * message still collapse into one request. Lines without a message id get no key.
 */
export function toUsageRecord(parsed: ParsedUsage, file: string, offset: number): UsageRecord {
  const sessionId = parsed.sessionId ?? sessionFromPath(file);
  return {
    key: dedupKey(parsed.messageId, parsed.requestId, sessionId),
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

export function dedupKey(messageId: string | null, requestId: string | null, sessionId: string): string | null {
  if (messageId === null) return null;
  if (requestId !== null) return `${messageId}\u0000${requestId}`;
  return `\u0001${sessionId}\u0000${messageId}`;
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
