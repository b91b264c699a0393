/** The literal every sensitive value is replaced by (spec 5.4). Nothing of the secret shows. */
export const MASK = '********';

const EXACT = new Set(['TOKEN', 'SECRET', 'PASSWORD', 'API_KEY', 'AUTH_TOKEN']);
const SUFFIXES = ['_TOKEN', '_KEY', '_SECRET', '_PASSWORD', '_CREDENTIAL', '_CREDENTIALS', '_PRIVATE_KEY'];

/** decisions §2: the exact names, or one of the suffixes, compared case-insensitively. */
export function isSensitiveKey(key: string): boolean {
  const upper = key.toUpperCase();
  return EXACT.has(upper) || SUFFIXES.some((suffix) => upper.endsWith(suffix));
}

/** A copy of `env` with every sensitive value, whatever its type, replaced by the mask. */
export function maskEnv(env: Record<string, unknown>): Record<string, unknown> {
  // fromEntries defines own properties, so a key named `__proto__` stays a plain key.
  return Object.fromEntries(Object.entries(env).map(([key, value]) => [key, isSensitiveKey(key) ? MASK : value]));
}

/**
 * Undoes the mask in an incoming env, so a masked form can be saved back: a sensitive key sent
 * as the mask keeps its stored value. With nothing stored the key is dropped, since the mask
 * itself must never become a stored secret.
 */
export function unmaskEnv(incoming: Record<string, string>, stored: Record<string, unknown> | undefined): Record<string, string> {
  const out: Array<[string, string]> = [];
  for (const [key, value] of Object.entries(incoming)) {
    if (value !== MASK || !isSensitiveKey(key)) {
      out.push([key, value]);
      continue;
    }
    const previous = stored && Object.hasOwn(stored, key) ? stored[key] : undefined;
    if (typeof previous === 'string') out.push([key, previous]);
  }
  return Object.fromEntries(out);
}
