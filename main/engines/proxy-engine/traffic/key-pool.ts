/**
 * The API keys of one upstream, used round-robin. A key that got a 429 or 5xx cools down: it is
 * skipped while another key is free (see `attemptOrder` for when none is).
 */
export class KeyPool {
  private cursor = 0;
  private readonly coolUntil: number[];

  /** `keys` empty = an upstream that needs no key (a local server); it gets one keyless slot. */
  constructor(readonly keys: readonly string[]) {
    this.coolUntil = new Array<number>(Math.max(1, keys.length)).fill(0);
  }

  get size(): number {
    return this.coolUntil.length;
  }

  /** Free slots for one request, starting at the round-robin cursor; advances the cursor by one. */
  freeSlots(now: number): number[] {
    const start = this.cursor;
    this.cursor = (this.cursor + 1) % this.size;
    const free: number[] = [];
    for (let i = 0; i < this.size; i++) {
      const slot = (start + i) % this.size;
      if (this.coolUntil[slot]! <= now) free.push(slot);
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

  /** Cools a slot until an absolute time (a provider's reset, a cooldown carried over). */
  coolDownUntil(slot: number, until: number): void {
    this.coolUntil[slot] = Math.max(this.coolUntil[slot]!, until);
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
