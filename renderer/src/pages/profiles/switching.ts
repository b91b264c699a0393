import { asText } from './env-rows.js';

/**
 * Env keys that name a model: the profile's own (`PROVIDER_MODEL`), the tier keys a preset
 * writes, and the agent's spellings of both. Their inputs offer the model suggestions.
 */
const MODEL_KEY = /^(PROVIDER|ANTHROPIC)_(MODEL|SMALL_FAST_MODEL|DEFAULT_(OPUS|SONNET|HAIKU)_MODEL)$/;

export function isModelKey(key: string): boolean {
  return MODEL_KEY.test(key.trim());
}

export interface EnvChange {
  key: string;
  /** Absent when the key was added. */
  before?: string;
  /** Absent when the key was removed. */
  after?: string;
}

/** What a write did to `env`, key by key in name order (values as the API shows them, masked). */
export function envChanges(before: Record<string, unknown>, after: Record<string, unknown>): EnvChange[] {
  const keys = [...new Set([...Object.keys(before), ...Object.keys(after)])].sort();
  const changes: EnvChange[] = [];
  for (const key of keys) {
    const had = Object.hasOwn(before, key);
    const has = Object.hasOwn(after, key);
    const b = had ? asText(before[key]) : undefined;
    const a = has ? asText(after[key]) : undefined;
    if (had !== has || b !== a) changes.push({ key, ...(had ? { before: b } : {}), ...(has ? { after: a } : {}) });
  }
  return changes;
}

/** Keys the env editor and presets panel do not cover, shown read-only. */
export function otherKeys(settings: Record<string, unknown>): Record<string, unknown> | null {
  const rest = Object.fromEntries(Object.entries(settings).filter(([k]) => k !== 'env' && k !== 'presets'));
  return Object.keys(rest).length > 0 ? rest : null;
}
