import type { Upstream } from '../config.js';
import type { EngineContext } from '../context.js';
import { upstreamKeys } from '../config.js';
import { ErrorLogWriter } from './error-log-writer.js';
import { KeyPool } from './key-pool.js';

/** Traffic bookkeeping that lives as long as the engine: key pools and the error-log writer. */
export interface TrafficState {
  poolOf: (upstream: Upstream) => KeyPool;
  errorLogs: ErrorLogWriter;
}

// Keyed by the context so in-process tests with their own context never share pools.
const states = new WeakMap<EngineContext, TrafficState>();

export function trafficState(ctx: EngineContext): TrafficState {
  let state = states.get(ctx);
  if (!state) {
    const pools = new Map<Upstream, KeyPool>();
    state = {
      poolOf: (upstream) => {
        let pool = pools.get(upstream);
        if (!pool) pools.set(upstream, (pool = new KeyPool(upstreamKeys(upstream))));
        return pool;
      },
      errorLogs: new ErrorLogWriter(ctx.logsDir, ctx.config.routing.error_logs_max_files, ctx.logger),
    };
    states.set(ctx, state);
  }
  return state;
}
