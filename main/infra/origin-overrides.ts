/**
 * decisions §4.1 `network.origin_overrides`: an outbound URL whose origin is listed goes to the
 * listed origin instead, path, query and headers unchanged. For tests (local fakes) and mirrors.
 * Pure, so every outbound caller (connection tests, sign-in, release feeds) shares one rule.
 */
export type OriginOverrides = Readonly<Record<string, string>>;

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
