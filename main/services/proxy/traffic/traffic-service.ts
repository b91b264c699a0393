import { REQUEST_STATS_ROUTE, REQUESTS_ROUTE } from '../../../engines/proxy-engine/request-log-routes.js';
import { isErrorEntry, type RequestLogEntry } from '../../../engines/proxy-engine/traffic/request-entry.js';
import { filterQuery, MinuteCounter, requestStats, selectEntries, type RequestFilter, type RequestStats } from '../../../engines/proxy-engine/traffic/request-query.js';
import { getLocalJson } from '../../../infra/http-json.js';
import type { ServiceContext } from '../../context.js';
import type { ProxyControl } from '../proxy-control.js';
import { readRequestHistory } from './request-history.js';
import { RequestFeed } from './request-feed.js';
import { RequestPricer } from './request-pricer.js';

/** A request-log entry as the API answers it: the engine's entry, priced. */
export interface PricedEntry extends RequestLogEntry {
  costUSD: number | null;
}

export interface RequestPage {
  requests: PricedEntry[];
  total: number;
  /** History lines that were not an entry (read from disk only; 0 from the running engine). */
  skippedLines: number;
}

/** The stats answer, with what was refused on the way (docs/proxy-engine.md, "Request log"). */
export interface TrafficStats extends RequestStats<PricedEntry> {
  /** Upstream usage numbers refused since the engine started; null while it is stopped. */
  refusedNumbers: number | null;
  skippedLines: number;
}

/**
 * The request log from the management side (issue 19): listing and stats read the running
 * engine's ring over its management channel, or the jsonl history when the engine is stopped (or
 * its ring has dropped entries the question needs); each finished request arrives over the
 * engine's stream and goes out as a `proxy-request` event, priced.
 */
export class TrafficService {
  private readonly feed: RequestFeed;
  private readonly pricer = new RequestPricer();
  private readonly offState: () => void;

  constructor(
    private readonly ctx: ServiceContext,
    private readonly control: ProxyControl,
  ) {
    this.feed = new RequestFeed((entry) => ctx.events.emit('proxy-request', this.pricer.price(entry)), ctx.logger);
    // Follows the supervisor: the stream is open exactly while the built-in engine runs.
    this.offState = ctx.events.on('proxy-state', () => this.feed.follow(control.managementEndpoint()));
  }

  async list(filter: RequestFilter): Promise<RequestPage> {
    const live = await this.fromEngine<{ requests: RequestLogEntry[]; total: number; wrapped: boolean }>(`${REQUESTS_ROUTE}?${filterQuery(filter)}`);
    if (live && !(live.wrapped && live.requests.length < filter.limit)) return { requests: live.requests.map((e) => this.pricer.price(e)), total: live.total, skippedLines: 0 };
    const history = await readRequestHistory(this.ctx.paths.proxyLogsDir);
    const page = selectEntries(history.entries, filter);
    return { requests: page.requests.map((e) => this.pricer.price(e)), total: page.total, skippedLines: history.skippedLines };
  }

  async stats(): Promise<TrafficStats> {
    const now = this.ctx.clock.now();
    const live = await this.fromEngine<RequestStats & { refusedNumbers?: number }>(REQUEST_STATS_ROUTE);
    if (live) {
      const stats = requestStats(live.perMinute, now, live.lastError && this.pricer.price(live.lastError));
      return { ...stats, refusedNumbers: live.refusedNumbers ?? null, skippedLines: 0 }; // null: an engine too old to count
    }
    const minutes = new MinuteCounter();
    let lastError: RequestLogEntry | null = null;
    const history = await readRequestHistory(this.ctx.paths.proxyLogsDir);
    for (const entry of history.entries) {
      minutes.add(entry);
      if (!lastError && isErrorEntry(entry)) lastError = entry;
    }
    return { ...requestStats(minutes.series(now), now, lastError && this.pricer.price(lastError)), refusedNumbers: null, skippedLines: history.skippedLines };
  }

  /** Whether live events flow (the engine's stream is open). */
  get following(): boolean {
    return this.feed.connected;
  }

  dispose(): void {
    this.offState();
    this.feed.close();
  }

  /** GET on the running engine's management channel; null when it is not there or not answering. */
  private async fromEngine<T>(route: string): Promise<T | null> {
    const endpoint = this.control.managementEndpoint();
    if (!endpoint) return null;
    try {
      const { status, body } = await getLocalJson(`${endpoint.baseUrl}${route}`, { authorization: `Bearer ${endpoint.secret}` }, 2_000);
      return status === 200 ? (body as T) : null;
    } catch {
      return null;
    }
  }
}
