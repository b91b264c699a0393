/**
 * Active client sessions for the status endpoint's `sessionCount` (decisions §4): distinct
 * sessions that sent a request within the window. Keys come from `metadata.user_id`, else
 * `x-session-id`, else client address + user agent (see `sessionKey`).
 */
export const SESSION_WINDOW_MS = 10 * 60_000;

/** Bound on remembered sessions, so a client inventing ids cannot grow memory without limit. */
const MAX_SESSIONS = 10_000;

export class SessionTracker {
  private readonly lastSeen = new Map<string, number>();

  constructor(private readonly windowMs = SESSION_WINDOW_MS) {}

  record(sessionKey: string, now = Date.now()): void {
    // Re-insert so the Map stays in last-seen order and pruning can stop at the first fresh one.
    this.lastSeen.delete(sessionKey);
    this.lastSeen.set(sessionKey, now);
    if (this.lastSeen.size > MAX_SESSIONS) this.prune(now, true);
  }

  count(now = Date.now()): number {
    this.prune(now, false);
    return this.lastSeen.size;
  }

  private prune(now: number, dropOldest: boolean): void {
    for (const [key, seen] of this.lastSeen) {
      if (now - seen < this.windowMs && !dropOldest) break;
      this.lastSeen.delete(key);
      dropOldest = false;
    }
  }
}

export interface SessionHints {
  /** `metadata.user_id` of an Anthropic request body. */
  userId?: unknown;
  /** The `x-session-id` header. */
  sessionHeader?: string | string[];
  remoteAddress?: string;
  userAgent?: string;
}

/** The session key of one request, by the precedence of decisions §4. */
export function sessionKey(hints: SessionHints): string {
  if (typeof hints.userId === 'string' && hints.userId !== '') return `user:${hints.userId}`;
  const header = Array.isArray(hints.sessionHeader) ? hints.sessionHeader[0] : hints.sessionHeader;
  if (header) return `session:${header}`;
  return `client:${hints.remoteAddress ?? ''}|${hints.userAgent ?? ''}`;
}
