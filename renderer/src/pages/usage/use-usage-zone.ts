import { api } from '../../api.js';
import { systemTimeZone } from '../../lib/format.js';
import { useResource } from '../../lib/use-resource.js';

/** Several views ask at once on one page: share one config read for a few seconds. */
let cached: { at: number; zone: Promise<string> } | null = null;

function configuredZone(): Promise<string> {
  if (!cached || Date.now() - cached.at > 5_000) {
    const zone = api.config().then((r) => (r.config.usage as { timezone?: string } | undefined)?.timezone || systemTimeZone());
    cached = { at: Date.now(), zone };
    zone.catch(() => (cached = null));
  }
  return cached.zone;
}

/**
 * The zone usage is grouped in: `usage.timezone` from config.yaml, else this machine's zone.
 * Undefined until known, so views do not fetch twice; a failed config read falls back at once.
 */
export function useUsageZone(): string | undefined {
  const zone = useResource(configuredZone, []);
  return zone.data ?? (zone.error ? systemTimeZone() : undefined);
}
