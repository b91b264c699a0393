import type { AccountUpstream } from './account-upstream.js';

/** Sessions remembered at most; the least recently used goes first. */
export const AFFINITY_MAX_SESSIONS = 10_000;
/** A session idle this long forgets its account (Anthropic's prompt cache lives minutes, not hours). */
export const AFFINITY_IDLE_MS = 60 * 60_000;

/**
 * Which account served each client session last, per provider and wire format, so the next
 * request of that session goes to the same account while it is free (prompt caches survive). A
 * session whose account cools down is served by another, and then sticks to that one. Bounded:
 * an LRU of `AFFINITY_MAX_SESSIONS` entries, each forgotten after `AFFINITY_IDLE_MS` idle.
 */
export class AccountAffinity {
  // Map order = least recently used first.
  private readonly entries = new Map<string, { file: string; seen: number }>();

  constructor(
    private readonly maxSessions = AFFINITY_MAX_SESSIONS,
    private readonly idleMs = AFFINITY_IDLE_MS,
  ) {}

  /** The slot of the session's account in this upstream, or undefined (new, expired, or the account is gone). */
  slotFor(session: string, upstream: AccountUpstream, now: number): number | undefined {
    const key = keyOf(session, upstream);
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    if (now - entry.seen >= this.idleMs) {
      this.entries.delete(key);
      return undefined;
    }
    const slot = upstream.accounts.findIndex((a) => a.file === entry.file);
    return slot >= 0 ? slot : undefined;
  }

  /** Notes the account that served the session. */
  remember(session: string, upstream: AccountUpstream, slot: number, now: number): void {
    const account = upstream.accounts[slot];
    if (!account) return;
    const key = keyOf(session, upstream);
    this.entries.delete(key);
    this.entries.set(key, { file: account.file, seen: now });
    while (this.entries.size > this.maxSessions) {
      const oldest = this.entries.keys().next().value;
      if (oldest === undefined) break;
      this.entries.delete(oldest);
    }
  }

  get size(): number {
    return this.entries.size;
  }
}

function keyOf(session: string, upstream: AccountUpstream): string {
  return `${upstream.name}:${upstream.format}\n${session}`;
}
