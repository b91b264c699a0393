import type { ProxyConfig } from '../config.js';
import type { AccountUpstream, RoutedUpstream } from '../providers/account-upstream.js';
import type { KeyPool } from './key-pool.js';

/** At most this many upstream attempts per client request, however many keys are configured. */
export const MAX_ATTEMPTS = 8;

export type Resolution =
  | { ok: true; upstreamModel: string; upstreams: RoutedUpstream[] }
  | { ok: false; status: 404; message: string };

/**
 * The upstreams that serve a model: the alias map first (`model_aliases`), then every upstream
 * listing the model, in config order, then the signed-in accounts of providers serving it.
 * `/api/provider/<name>/...` pins one upstream (or provider) whatever its list says: the user
 * chose it explicitly, and the upstream knows its own models best.
 */
export function resolveUpstreams(config: ProxyConfig, model: string, pinned: string | undefined, accounts: readonly AccountUpstream[] = []): Resolution {
  const upstreamModel = config.model_aliases[model] ?? model;
  if (pinned !== undefined) {
    const upstream = config.upstreams.find((u) => u.name === pinned) ?? accounts.find((u) => u.name === pinned);
    if (!upstream) return { ok: false, status: 404, message: `Unknown provider "${pinned}": no upstream of that name in proxy/config.yaml and no signed-in account of it` };
    return { ok: true, upstreamModel, upstreams: [upstream] };
  }
  const serves = (u: RoutedUpstream) => u.models.includes(upstreamModel) || u.models.includes(model);
  const upstreams: RoutedUpstream[] = [...config.upstreams.filter(serves), ...accounts.filter(serves)];
  if (upstreams.length === 0) {
    return { ok: false, status: 404, message: `Unknown model "${model}": no upstream in proxy/config.yaml lists it and no signed-in account serves it` };
  }
  return { ok: true, upstreamModel, upstreams };
}

export interface Attempt {
  upstream: RoutedUpstream;
  pool: KeyPool;
  slot: number;
}

/**
 * The order to try keys in: every free key of every candidate upstream (upstreams in config
 * order, keys round-robin or fill-first within each; the session's account first when it is free). When no key is free anywhere, the one whose cooldown ends
 * first is still tried: refusing on our own bookkeeping alone would turn one upstream hiccup into
 * a self-made outage for single-key setups.
 */
export function attemptOrder(upstreams: RoutedUpstream[], poolOf: (u: RoutedUpstream) => KeyPool, now: number, preferredSlot: (u: RoutedUpstream) => number | undefined = () => undefined): Attempt[] {
  const out: Attempt[] = [];
  for (const upstream of upstreams) {
    const pool = poolOf(upstream);
    for (const slot of pool.freeSlots(now, preferredSlot(upstream))) out.push({ upstream, pool, slot });
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
