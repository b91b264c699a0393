import type { EngineContext } from '../context.js';
import { upstreamKeys, type Upstream } from '../config.js';
import { AccountAffinity } from '../providers/account-affinity.js';
import { AccountScan } from '../providers/account-scan.js';
import { isAccountUpstream, type RoutedUpstream } from '../providers/account-upstream.js';
import { DEFAULT_ERROR_LOG_KEEP, ErrorLogWriter } from './error-log-writer.js';
import { KeyPool } from './key-pool.js';
import { RequestLog } from './request-log.js';

/** Traffic bookkeeping that lives as long as the engine: key pools, the error-log writer, the request log. */
export interface TrafficState {
  poolOf: (upstream: RoutedUpstream) => KeyPool;
  /** The signed-in subscription accounts, as upstreams. */
  accounts: AccountScan;
  /** Which account each client session last used (`routing.session_affinity`). */
  affinity: AccountAffinity;
  errorLogs: ErrorLogWriter;
  requestLog: RequestLog;
}

// Keyed by the context so in-process tests with their own context never share pools.
const states = new WeakMap<EngineContext, TrafficState>();

export function trafficState(ctx: EngineContext): TrafficState {
  let state = states.get(ctx);
  if (!state) {
    const pools = new Map<Upstream, KeyPool>();
    const keep = ctx.config.routing.error_logs_max_files ?? ctx.errorLogKeep ?? DEFAULT_ERROR_LOG_KEEP;
    state = {
      poolOf: (upstream) => {
        if (isAccountUpstream(upstream)) return upstream.pool;
        let pool = pools.get(upstream);
        if (!pool) pools.set(upstream, (pool = new KeyPool(upstreamKeys(upstream))));
        return pool;
      },
      accounts: new AccountScan({ authDir: ctx.authDir, config: ctx.config, originOverrides: ctx.originOverrides ?? {}, now: ctx.now }),
      affinity: new AccountAffinity(),
      errorLogs: new ErrorLogWriter(ctx.logsDir, keep, ctx.logger),
      requestLog: ctx.requestLog ?? new RequestLog(ctx.logsDir, ctx.logger, ctx.startedAt),
    };
    states.set(ctx, state);
  }
  return state;
}
