/**
 * Sends an outbound URL to another origin when `overrides` names its origin (config.yaml
 * `network.origin_overrides`, used by tests and mirrors). The match is exact on the normalised
 * origin (scheme, host, port); path and query are kept.
 */
export function overrideOrigin(url: string, overrides: Readonly<Record<string, string>> | undefined): string {
  if (!overrides) return url;
  const parsed = new URL(url);
  for (const [from, to] of Object.entries(overrides)) {
    let fromOrigin: string;
    try {
      fromOrigin = new URL(from).origin;
    } catch {
      continue; // a malformed key never matches
    }
    if (fromOrigin !== parsed.origin) continue;
    const target = new URL(to);
    return `${target.origin}${parsed.pathname}${parsed.search}${parsed.hash}`;
  }
  return url;
}
