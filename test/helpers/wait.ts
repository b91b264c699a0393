export interface WaitOptions {
  /** Named in the error when the time is up. */
  what?: string;
  ms?: number;
  pollMs?: number;
}

/**
 * Polls `probe` until `ok` holds for its value and answers that value; after `ms` it fails naming
 * `what` and the last value. Tests wait on a condition this way, never on a guessed sleep.
 */
export async function waitFor<T>(probe: () => Promise<T> | T, ok: (value: T) => boolean = Boolean, { what = 'a condition', ms = 5_000, pollMs = 50 }: WaitOptions = {}): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await probe();
    if (ok(value)) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}${value === undefined || typeof value === 'boolean' ? '' : `: ${JSON.stringify(value)}`}`);
    await new Promise((resolve) => setTimeout(resolve, pollMs));
  }
}
