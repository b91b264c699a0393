import { isRecord } from '../../infra/json-checks.js';

/**
 * decisions §2: the agent gets the profile's `env` with every `PROVIDER_<X>` also exported as
 * `ANTHROPIC_<X>`; an `ANTHROPIC_<X>` the profile writes itself wins. Nothing else is renamed.
 * Pure: the launcher, `switchboard env` and the Claude Code settings merge all use this.
 */
const PROVIDER = 'PROVIDER_';
const ANTHROPIC = 'ANTHROPIC_';

/** The variables a profile adds to the agent's environment (strings only, see `envValue`). */
export function launchEnv(profileEnv: unknown): Record<string, string> {
  if (!isRecord(profileEnv)) return {};
  const own = new Map<string, string>();
  for (const [key, raw] of Object.entries(profileEnv)) {
    const value = envValue(raw);
    if (value !== null) own.set(key, value);
  }
  const out = new Map(own);
  for (const [key, value] of own) {
    if (!key.startsWith(PROVIDER) || key.length === PROVIDER.length) continue;
    const mapped = ANTHROPIC + key.slice(PROVIDER.length);
    if (!own.has(mapped)) out.set(mapped, value);
  }
  // fromEntries defines own properties, so a key named `__proto__` stays a plain key.
  return Object.fromEntries(out);
}

const VARIABLE_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/**
 * The one rule for what an environment can hold (issue 27.12), for `switchboard env` and
 * `switchboard run` alike: a key must be a shell variable name (`FOO=BAR` would set FOO in a
 * child), and no value may hold a NUL (the OS cuts the string there). Null when the entry is fine.
 */
export function envEntryProblem(key: string, value: string): string | null {
  if (!VARIABLE_NAME.test(key)) return 'not a variable name';
  if (value.includes('\0')) return 'its value holds a NUL';
  return null;
}

/** The whole environment of the agent: the caller's, with the profile's on top. */
export function agentEnv(profileEnv: unknown, callerEnv: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  return { ...callerEnv, ...launchEnv(profileEnv) };
}

/**
 * A JSON env value as an environment string: strings as they are, numbers and booleans written
 * out (Claude Code's own settings accept `"API_TIMEOUT_MS": 600000`); null, objects and arrays
 * have no environment form and are left out.
 */
export function envValue(value: unknown): string | null {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  if (typeof value === 'boolean') return String(value);
  return null;
}

/** The first non-blank string among `keys` of a profile's env. */
export function firstSet(profileEnv: unknown, keys: readonly string[]): string | null {
  if (!isRecord(profileEnv)) return null;
  for (const key of keys) {
    const value = profileEnv[key];
    if (typeof value === 'string' && value.trim() !== '') return value;
  }
  return null;
}

export const BASE_URL_KEYS = ['PROVIDER_BASE_URL', 'ANTHROPIC_BASE_URL'] as const;
export const MODEL_KEYS = ['PROVIDER_MODEL', 'ANTHROPIC_MODEL'] as const;
/** Where a profile may hold the token it sends (Bearer or x-api-key). */
export const TOKEN_KEYS = ['PROVIDER_AUTH_TOKEN', 'ANTHROPIC_AUTH_TOKEN', 'PROVIDER_API_KEY', 'ANTHROPIC_API_KEY'] as const;
