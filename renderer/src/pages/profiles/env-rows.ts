import { isSensitiveEntry, MASK } from '../../lib/secrets.js';

export interface EnvRow {
  id: number;
  key: string;
  value: string;
  revealed: boolean;
}

let nextId = 1;
export const REQUIRED_KEYS = ['PROVIDER_BASE_URL', 'PROVIDER_AUTH_TOKEN', 'PROVIDER_MODEL'];

/**
 * A hand-edited settings file may hold a number, boolean or object where the agent expects a
 * string: the row shows it as text (JSON for objects) and saving writes it back as that string.
 */
export function rowsFromEnv(env: Record<string, unknown>): EnvRow[] {
  return Object.entries(env).map(([key, value]) => ({ id: nextId++, key, value: asText(value), revealed: false }));
}

export function asText(value: unknown): string {
  if (typeof value === 'string') return value;
  if (value === null || typeof value === 'object') return JSON.stringify(value);
  return String(value);
}

export function blankRow(key = ''): EnvRow {
  return { id: nextId++, key, value: '', revealed: false };
}

export function envFromRows(rows: EnvRow[]): Record<string, string> {
  const env: Record<string, string> = {};
  for (const r of rows) if (r.key.trim()) env[r.key.trim()] = r.value;
  return env;
}

/** Per-row problems, keyed by row id; empty when the rows can be saved. */
export function validateRows(rows: EnvRow[]): Map<number, string> {
  const problems = new Map<number, string>();
  const seen = new Set<string>();
  for (const r of rows) {
    const key = r.key.trim();
    if (!key && !r.value) continue;
    if (!key) problems.set(r.id, 'Name is required');
    else if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(key)) problems.set(r.id, 'Use letters, digits and _ only, not starting with a digit');
    else if (seen.has(key)) problems.set(r.id, `Duplicate name ${key}`);
    seen.add(key);
  }
  return problems;
}

/** Text for the conflict view: secrets never shown, but an edited secret says so. */
export function envAsText(env: Record<string, string>): string {
  return Object.keys(env)
    .sort()
    .map((k) => `${k}=${isSensitiveEntry(k, env[k]) && env[k] !== MASK ? `${MASK} (edited)` : env[k]}`)
    .join('\n');
}
