import { sha256, type AppliedInfo, type OwnedKey } from './record.js';

export interface MergedEnv {
  env: Record<string, unknown>;
  /** What the user had under each key Switchboard now owns. */
  owned: Record<string, OwnedKey>;
}

/**
 * The file's `env` with a profile's env on top, key by key:
 * - a key Switchboard writes for the first time remembers what the user had there (or that it was unset);
 * - a key it owned that this profile no longer sets gets the user's value back (or is removed
 *   when the user had none), as long as it still holds what Switchboard wrote;
 * - a key whose value the user changed since is the user's: it is never taken back, and if this
 *   profile sets it again, the user's changed value is what comes back later.
 * `previous` is what the last apply wrote (null when nothing is applied).
 */
export function mergeEnv(current: Record<string, unknown>, env: Record<string, string>, owned: Record<string, OwnedKey>, previous: AppliedInfo | null): MergedEnv {
  const merged: Record<string, unknown> = { ...current };
  const nextOwned: Record<string, OwnedKey> = {};
  const stillWritten = (key: string) => {
    const value = merged[key];
    const hash = previous?.values[key];
    return hash !== undefined && typeof value === 'string' && sha256(value) === hash;
  };
  const userValue = (key: string): OwnedKey => (Object.hasOwn(merged, key) ? { had: true, value: merged[key] } : { had: false });
  for (const [key, before] of Object.entries(owned)) {
    if (Object.hasOwn(env, key)) {
      nextOwned[key] = stillWritten(key) ? before : userValue(key);
    } else if (stillWritten(key)) {
      if (before.had) merged[key] = before.value;
      else delete merged[key];
    }
  }
  for (const key of Object.keys(env)) {
    if (!Object.hasOwn(nextOwned, key)) nextOwned[key] = userValue(key);
  }
  return { env: Object.assign(merged, env), owned: nextOwned };
}

/** True when every key Switchboard owns still holds the value it wrote (the user took none of them over). */
export function ownedKeysIntact(current: Record<string, unknown>, applied: AppliedInfo): boolean {
  return applied.keys.every((key) => {
    const value = current[key];
    return typeof value === 'string' && sha256(value) === applied.values[key];
  });
}
