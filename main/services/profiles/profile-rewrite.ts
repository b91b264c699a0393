import { isRecord } from '../../infra/json-checks.js';
import type { SettingsData } from '../settings/settings-store.js';
import { BASE_URL_KEYS, TOKEN_KEYS } from './launch-env.js';

/**
 * Rewrites of one profile's env, pure, for routing through the proxy and for key rotation.
 * Both the `PROVIDER_` keys and any `ANTHROPIC_` ones the profile writes itself change together,
 * since an `ANTHROPIC_` key written in the profile wins at launch (decisions §2).
 */
export interface ProxyRoute {
  baseUrl: string;
  apiKey: string;
}

/** Points the profile at the proxy: base URL and token set, every other key kept. */
export function routedThroughProxy(data: SettingsData | undefined, route: ProxyRoute): SettingsData {
  const env = { ...(data && isRecord(data.env) ? data.env : {}) };
  env.PROVIDER_BASE_URL = route.baseUrl;
  env.PROVIDER_AUTH_TOKEN = route.apiKey;
  if (typeof env.ANTHROPIC_BASE_URL === 'string') env.ANTHROPIC_BASE_URL = route.baseUrl;
  if (typeof env.ANTHROPIC_AUTH_TOKEN === 'string') env.ANTHROPIC_AUTH_TOKEN = route.apiKey;
  return { ...data, env };
}

/** Base URL keys of `env` that `matches`, and token keys whose value is `token`. */
export function keysMatching(env: Record<string, unknown>, matchesUrl: (url: string) => boolean, token: string): { urls: string[]; tokens: string[] } {
  const urls = BASE_URL_KEYS.filter((k) => typeof env[k] === 'string' && matchesUrl(env[k] as string));
  const tokens = TOKEN_KEYS.filter((k) => env[k] === token);
  return { urls, tokens };
}

/**
 * decisions §2 key rotation: a profile that goes through the proxy (a base URL key matches) with
 * the old key (a token key equals it) gets the new values; null when the profile is not one.
 */
export function followedProxyChange(
  data: SettingsData,
  matchesOldUrl: (url: string) => boolean,
  oldKey: string,
  next: { baseUrl?: string; apiKey?: string },
): SettingsData | null {
  if (!isRecord(data.env)) return null;
  const { urls, tokens } = keysMatching(data.env, matchesOldUrl, oldKey);
  if (urls.length === 0 || tokens.length === 0) return null;
  const env = { ...data.env };
  if (next.baseUrl !== undefined) for (const key of urls) env[key] = next.baseUrl;
  if (next.apiKey !== undefined) for (const key of tokens) env[key] = next.apiKey;
  return { ...data, env };
}

/**
 * decisions §2: `default` → PROVIDER_MODEL, tiers → PROVIDER_DEFAULT_<TIER>_MODEL; a tier the
 * preset leaves out is removed. The same `ANTHROPIC_` keys, when the profile writes them itself,
 * follow too: they win at launch, so leaving them would keep the old model.
 */
export function withPreset(data: SettingsData, preset: Record<string, unknown>): SettingsData {
  const env = { ...(isRecord(data.env) ? data.env : {}) };
  const set = (suffix: string, value: unknown) => {
    const usable = typeof value === 'string' && value.trim() !== '';
    for (const prefix of ['PROVIDER_', 'ANTHROPIC_']) {
      const key = prefix + suffix;
      if (prefix === 'ANTHROPIC_' && !Object.hasOwn(env, key)) continue;
      if (usable) env[key] = value;
      else delete env[key];
    }
  };
  set('MODEL', preset.default);
  for (const tier of ['OPUS', 'SONNET', 'HAIKU'] as const) set(`DEFAULT_${tier}_MODEL`, preset[tier.toLowerCase()]);
  return { ...data, env };
}
