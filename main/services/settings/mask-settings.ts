import { isRecord } from '../../infra/json-checks.js';
import { isSensitiveKey, MASK, maskEnv, unmaskEnv } from './masking.js';

/**
 * The whole settings object masked (decisions §2): `env` by its own rule, and every other key
 * (`permissions`, `hooks`, anything a user keeps there) by the same key rule at any depth.
 * `presets` hold model names only, but go through the same walk.
 */
export function maskSettings(data: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(data).map(([key, value]) => [key, key === 'env' && isRecord(value) ? maskEnv(value) : maskValue(key, value)]),
  );
}

/**
 * The incoming settings with masked values put back from the stored ones, so a masked form can be
 * saved back without writing the mask: `env` by its own rule, other keys where the same path in
 * the stored settings holds a value. A mask with nothing stored under it is dropped.
 */
export function unmaskSettings(
  incoming: Record<string, unknown> & { env: Record<string, string> },
  stored: Record<string, unknown> | undefined,
): Record<string, unknown> & { env: Record<string, string> } {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(incoming)) {
    if (key === 'env') continue;
    const restored = restoreValue(key, value, stored && Object.hasOwn(stored, key) ? stored[key] : undefined);
    if (restored !== DROP) out[key] = restored;
  }
  return Object.assign(out, { env: unmaskEnv(incoming.env, stored && isRecord(stored.env) ? stored.env : undefined) });
}

function maskValue(key: string, value: unknown): unknown {
  if (isSensitiveKey(key)) return MASK;
  if (Array.isArray(value)) return value.map((item) => maskNested(item));
  if (isRecord(value)) return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, maskValue(k, v)]));
  return value;
}

/** Array items have no key of their own: only the objects inside them are walked. */
function maskNested(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(maskNested);
  if (isRecord(value)) return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, maskValue(k, v)]));
  return value;
}

const DROP = Symbol('drop');

function restoreValue(key: string | null, value: unknown, stored: unknown): unknown {
  if (key !== null && value === MASK && isSensitiveKey(key)) return stored === undefined ? DROP : stored;
  if (Array.isArray(value)) {
    const storedItems = Array.isArray(stored) ? stored : [];
    return value.map((item, i) => restoreValue(null, item, storedItems[i])).filter((v) => v !== DROP);
  }
  if (isRecord(value)) {
    const storedObject = isRecord(stored) ? stored : {};
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) {
      const restored = restoreValue(k, v, Object.hasOwn(storedObject, k) ? storedObject[k] : undefined);
      if (restored !== DROP) out[k] = restored;
    }
    return out;
  }
  return value;
}
