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

/** Examples shown in empty fields, so a new profile says what each required key wants. */
export const PLACEHOLDERS: Record<string, string> = {
  PROVIDER_BASE_URL: 'https://api.example.com',
  ANTHROPIC_BASE_URL: 'https://api.example.com',
  PROVIDER_AUTH_TOKEN: 'your provider API key',
  ANTHROPIC_AUTH_TOKEN: 'your provider API key',
  PROVIDER_MODEL: 'e.g. claude-sonnet-4-5',
  ANTHROPIC_MODEL: 'e.g. claude-sonnet-4-5',
};

export const URL_KEYS = ['PROVIDER_BASE_URL', 'ANTHROPIC_BASE_URL'];

/**
 * What is wrong with a base URL, or null (the API's rule, issue 28.5): blank is fine, anything
 * else must be an absolute http(s) URL with a host. The mask stands for a stored value the API keeps.
 */
export function urlProblem(value: string): string | null {
  const text = value.trim();
  if (text === '' || text === MASK) return null;
  const expected = 'Must be an http(s) URL such as https://api.example.com';
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return expected;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return `${expected} (start with http:// or https://)`;
  if (url.hostname === '') return `${expected} (it has no host)`;
  return null;
}

/** Per-row problems of values (base URLs), keyed by row id: shown while typing. */
export function validateValues(rows: EnvRow[]): Map<number, string> {
  const problems = new Map<number, string>();
  for (const r of rows) {
    if (!URL_KEYS.includes(r.key.trim())) continue;
    const problem = urlProblem(r.value);
    if (problem) problems.set(r.id, problem);
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
