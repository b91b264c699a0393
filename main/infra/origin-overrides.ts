/**
 * decisions §4.1 `network.origin_overrides`: an outbound URL whose origin is listed goes to the
 * listed origin instead, path, query and headers unchanged. For tests (local fakes) and mirrors.
 * Pure, so every outbound caller (sign-in, refresh, quota, executors, connection tests, release
 * feeds) shares one rule and a test reaches its fake by the code path a user runs. The app hands
 * the map to the proxy engine as JSON in ORIGIN_OVERRIDES_ENV.
 */
export type OriginOverrides = Readonly<Record<string, string>>;

export const ORIGIN_OVERRIDES_ENV = 'SWITCHBOARD_ORIGIN_OVERRIDES';

/** `url` with its origin replaced when `overrides` names that origin (exact match, after URL normalisation). */
export function overrideOrigin(url: string, overrides: OriginOverrides | undefined): string {
  if (!overrides) return url;
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return url;
  }
  const target = lookup(parsed.origin, overrides);
  if (target === undefined) return url;
  const to = new URL(target);
  return `${to.origin}${parsed.pathname}${parsed.search}${parsed.hash}`;
}

/** Keys are written by hand (`https://API.example.com/`): both sides are compared as URL origins. */
function lookup(origin: string, overrides: OriginOverrides): string | undefined {
  for (const [from, to] of Object.entries(overrides)) {
    if (originOf(from) === origin) return to;
  }
  return undefined;
}

function originOf(value: string): string | null {
  try {
    return new URL(value).origin;
  } catch {
    return null;
  }
}

/** The map from its JSON text (the engine's environment); anything that is not an object of origins counts as none. */
export function parseOriginOverrides(text: string | undefined): OriginOverrides {
  if (!text) return {};
  try {
    const value: unknown = JSON.parse(text);
    if (value === null || typeof value !== 'object' || Array.isArray(value)) return {};
    const out: Record<string, string> = {};
    for (const [from, to] of Object.entries(value)) if (typeof to === 'string' && isOrigin(from) && isOrigin(to)) out[from] = to;
    return out;
  } catch {
    return {};
  }
}

/** `scheme://host[:port]` (a trailing slash allowed) and nothing after it. */
export function isOrigin(text: string): boolean {
  try {
    const url = new URL(text);
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.origin === text.replace(/\/$/, '').toLowerCase();
  } catch {
    return false;
  }
}
