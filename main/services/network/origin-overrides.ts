import { z } from 'zod';

/**
 * `config.yaml` `network.origin_overrides` (decisions §4.1): exact origin → origin, for tests and
 * mirrors. Paths, queries and headers are unchanged; only the scheme, host and port move.
 */
export const networkSectionSchema = z.looseObject({
  origin_overrides: z.record(z.string(), z.string()).default({}),
});

export type OriginOverrides = Record<string, string>;

/** `url` with its origin replaced when the overrides name it; anything else comes back as given. */
export function overrideOrigin(url: string, overrides: OriginOverrides): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return url;
  }
  const target = lookup(parsed.origin, overrides);
  if (!target) return url;
  const to = new URL(target);
  return `${to.origin}${parsed.pathname}${parsed.search}${parsed.hash}`;
}

/** Keys are compared as origins, so `https://auth.openai.com/` and `https://auth.openai.com` are one. */
function lookup(origin: string, overrides: OriginOverrides): string | undefined {
  for (const [from, to] of Object.entries(overrides)) {
    try {
      if (new URL(from).origin === origin) return to;
    } catch {
      // a key that is not a URL never matches
    }
  }
  return undefined;
}
