/** How a pool picks among its free slots: take turns, or drain the first before the next. */
export type PoolStrategy = 'round-robin' | 'fill-first';

/**
 * The API keys of one upstream, used round-robin (or fill-first). A key that got a 429 or 5xx
 * cools down: it is skipped while another key is free (see `attemptOrder` for when none is).
 */
export class KeyPool {
  private cursor = 0;
  private readonly coolUntil: number[];
  /** Why each slot cools (a quota answer, a sign-out…), for the management route; '' when not said. */
  private readonly reasons: string[];

  /** `keys` empty = an upstream that needs no key (a local server); it gets one keyless slot. */
  constructor(
    readonly keys: readonly string[],
    readonly strategy: PoolStrategy = 'round-robin',
  ) {
    this.coolUntil = new Array<number>(Math.max(1, keys.length)).fill(0);
    this.reasons = new Array<string>(this.coolUntil.length).fill('');
  }

  get size(): number {
    return this.coolUntil.length;
  }

  /**
   * Free slots for one request. Round-robin starts at the cursor and advances it by one;
   * fill-first always starts at slot 0 (the pool's drain order). A free `preferred` slot (the
   * session's account) comes first and leaves the cursor where it is.
   */
  freeSlots(now: number, preferred?: number): number[] {
    const pinned = preferred !== undefined && preferred >= 0 && preferred < this.size && this.coolUntil[preferred]! <= now;
    let start = 0;
    if (this.strategy === 'round-robin') {
      start = this.cursor;
      if (!pinned) this.cursor = (this.cursor + 1) % this.size;
    }
    const free: number[] = pinned ? [preferred] : [];
    for (let i = 0; i < this.size; i++) {
      const slot = (start + i) % this.size;
      if (slot !== preferred && this.coolUntil[slot]! <= now) free.push(slot);
    }
    return free;
  }

  /** The slot whose cooldown ends first, for when nothing is free anywhere. */
  soonest(): { slot: number; until: number } {
    let slot = 0;
    for (let i = 1; i < this.size; i++) if (this.coolUntil[i]! < this.coolUntil[slot]!) slot = i;
    return { slot, until: this.coolUntil[slot]! };
  }

  /** The key of a slot, or undefined for a keyless upstream. */
  key(slot: number): string | undefined {
    return this.keys[slot];
  }

  coolDown(slot: number, now: number, ms: number): void {
    this.coolUntil[slot] = Math.max(this.coolUntil[slot]!, now + ms);
  }

  /** Cools a slot until an absolute time (a provider's reset, a cooldown carried over), saying why when known. */
  coolDownUntil(slot: number, until: number, reason = ''): void {
    if (until >= this.coolUntil[slot]!) {
      this.coolUntil[slot] = until;
      if (reason) this.reasons[slot] = reason;
    }
  }

  /** Why a slot cools, as given to `coolDownUntil`; '' when not said. */
  reason(slot: number): string {
    return this.reasons[slot] ?? '';
  }

  cooledUntil(slot: number): number {
    return this.coolUntil[slot]!;
  }

  isCooling(slot: number, now: number): boolean {
    return this.coolUntil[slot]! > now;
  }
}

/** Cooldown for a failed attempt: a Retry-After from the upstream wins when longer, capped at 10 minutes. */
export function cooldownMs(configuredSeconds: number, retryAfter: string | string[] | undefined, now: number): number {
  const base = configuredSeconds * 1000;
  const header = Array.isArray(retryAfter) ? retryAfter[0] : retryAfter;
  if (!header) return base;
  const seconds = Number(header);
  const hinted = Number.isFinite(seconds) ? seconds * 1000 : Date.parse(header) - now;
  return Number.isFinite(hinted) && hinted > base ? Math.min(hinted, 600_000) : base;
}
