/**
 * `network.origin_overrides` (decisions §4.1): exact origin → origin, for tests and mirrors. Every
 * outbound base URL (sign-in, refresh, quota, executors, release feeds) goes through `overrideUrl`,
 * so a test reaches its local fake by the same code path a user runs. The app hands the map to the
 * proxy engine as JSON in this environment variable.
 */
export const ORIGIN_OVERRIDES_ENV = 'SWITCHBOARD_ORIGIN_OVERRIDES';

export type OriginOverrides = Readonly<Record<string, string>>;

/** The URL with its origin replaced when the map names that exact origin; paths and queries stay. */
export function overrideUrl(url: string, overrides: OriginOverrides): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return url;
  }
  const to = overrides[parsed.origin];
  if (!to) return url;
  const target = new URL(to);
  const base = target.pathname.replace(/\/$/, '');
  return `${target.origin}${base}${parsed.pathname}${parsed.search}${parsed.hash}`;
}

/** The map from its JSON text; anything that is not an object of origin strings counts as no overrides. */
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

/** `scheme://host[:port]` and nothing else (URL normalises the port, so compare its origin). */
export function isOrigin(text: string): boolean {
  try {
    const url = new URL(text);
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.origin === text.replace(/\/$/, '');
  } catch {
    return false;
  }
}
