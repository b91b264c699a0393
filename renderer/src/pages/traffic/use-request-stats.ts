import { useEffect } from 'preact/hooks';
import { api } from '../../api.js';
import type { RequestStats } from '../../api-types.js';
import { useNow, useThrottledLiveReload } from '../../lib/live.js';
import { useResource, type Resource } from '../../lib/use-resource.js';

/**
 * GET /api/proxy/requests/stats, kept current: re-read at most every 5 s while requests finish,
 * and each minute (the window moves on even when nothing happens), only while visible.
 */
export function useRequestStats(): Resource<RequestStats> {
  const stats = useResource(api.proxyRequestStats, []);
  useThrottledLiveReload(['proxy-request', 'proxy-state'], () => void stats.reload(), 5_000, 30_000);
  const minute = useNow(60_000);
  useEffect(() => void stats.reload(), [minute]);
  return stats;
}
