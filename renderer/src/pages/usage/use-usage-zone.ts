import { api } from '../../api.js';
import { systemTimeZone } from '../../lib/format.js';
import { useResource } from '../../lib/use-resource.js';

/** The zone usage is grouped in: `usage.timezone` from config.yaml, else this machine's zone. */
export function useUsageZone(): string {
  const config = useResource(api.config, []);
  const usage = config.data?.config.usage as { timezone?: string } | undefined;
  return usage?.timezone || systemTimeZone();
}
