import type { Logger } from '../../infra/logger.js';
import type { OriginOverrides } from '../../infra/origin-overrides.js';
import type { ProxyConfig } from './config.js';
import type { SessionTracker } from './sessions.js';
import type { RequestLog } from './traffic/request-log.js';

/** What every part of the engine works from; built once in main.ts, or by tests in-process. */
export interface EngineContext {
  config: ProxyConfig;
  configPath: string;
  /** Where error-*.log files go: `$WRITABLE_PATH/logs`, else `logs/` beside the config. */
  logsDir: string;
  /** Where provider auth files live (`auth/` beside the config). */
  authDir: string;
  sessions: SessionTracker;
  /** error-*.log files to keep when `routing.error_logs_max_files` is unset (the app's `proxy.error_log_keep`). */
  errorLogKeep?: number;
  logger: Logger;
  /** Tests hand in a small one; otherwise the traffic state builds the default. */
  requestLog?: RequestLog;
  version: string;
  /** ms since epoch when the engine started listening. */
  startedAt: number;
  now: () => number;
  /** `network.origin_overrides` of the app's config.yaml, for the executors' base URLs (tests, mirrors). */
  originOverrides?: OriginOverrides;
}
