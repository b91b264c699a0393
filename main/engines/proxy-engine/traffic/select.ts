import type { ProxyConfig, Upstream } from '../config.js';
import type { KeyPool } from './key-pool.js';

/** At most this many upstream attempts per client request, however many keys are configured. */
export const MAX_ATTEMPTS = 8;

export type Resolution =
  | { ok: true; upstreamModel: string; upstreams: Upstream[] }
  | { ok: false; status: 404; message: string };

/**
 * The upstreams that serve a model: the alias map first (`model_aliases`), then every upstream
 * listing the model, in config order. `/api/provider/<name>/...` pins one upstream whatever its
 * list says: the user chose it explicitly, and the upstream knows its own models best.
 */
export function resolveUpstreams(config: ProxyConfig, model: string, pinned: string | undefined): Resolution {
  const upstreamModel = config.model_aliases[model] ?? model;
  if (pinned !== undefined) {
    const upstream = config.upstreams.find((u) => u.name === pinned);
    if (!upstream) return { ok: false, status: 404, message: `Unknown provider "${pinned}": no upstream of that name in proxy/config.yaml` };
    return { ok: true, upstreamModel, upstreams: [upstream] };
  }
  const upstreams = config.upstreams.filter((u) => u.models.includes(upstreamModel) || u.models.includes(model));
  if (upstreams.length === 0) {
    return { ok: false, status: 404, message: `Unknown model "${model}": no upstream in proxy/config.yaml lists it` };
  }
  return { ok: true, upstreamModel, upstreams };
}

export interface Attempt {
  upstream: Upstream;
  pool: KeyPool;
  slot: number;
}

/**
 * The order to try keys in: every free key of every candidate upstream (upstreams in config
 * order, keys round-robin within each). When no key is free anywhere, the one whose cooldown ends
 * first is still tried: refusing on our own bookkeeping alone would turn one upstream hiccup into
 * a self-made outage for single-key setups.
 */
export function attemptOrder(upstreams: Upstream[], poolOf: (u: Upstream) => KeyPool, now: number): Attempt[] {
  const out: Attempt[] = [];
  for (const upstream of upstreams) {
    const pool = poolOf(upstream);
    for (const slot of pool.freeSlots(now)) out.push({ upstream, pool, slot });
  }
  if (out.length > 0) return out.slice(0, MAX_ATTEMPTS);
  let best: (Attempt & { until: number }) | undefined;
  for (const upstream of upstreams) {
    const pool = poolOf(upstream);
    const { slot, until } = pool.soonest();
    if (!best || until < best.until) best = { upstream, pool, slot, until };
  }
  return best ? [{ upstream: best.upstream, pool: best.pool, slot: best.slot }] : [];
}
