import http from 'node:http';
import type { RequestLogEntry } from '../../../engines/proxy-engine/traffic/request-entry.js';
import { readLogEntry } from '../../../engines/proxy-engine/traffic/request-entry-check.js';
import { REQUEST_STREAM_ROUTE } from '../../../engines/proxy-engine/request-log-routes.js';
import type { Logger } from '../../../infra/logger.js';

export interface FeedEndpoint {
  baseUrl: string;
  secret: string;
}

/** Longest line accepted from the engine (an entry is well under 8 KiB; the engine cuts error texts to 2 KiB). */
const MAX_LINE = 1024 * 1024;
const MAX_RETRY_MS = 60_000;

/**
 * How the management side learns of each finished request without polling: one long-lived GET
 * on the engine's management channel (`/v0/management/requests/stream`, loopback, management
 * secret) that answers one JSON line per request. Opened while the built-in engine runs, reopened
 * when it drops while the engine still runs (after `retryMs`, doubling up to a minute while the
 * engine refuses, e.g. 401 for an adopted engine started with another secret, so the log gets a
 * line per minute, not per second); closed when it stops.
 */
export class RequestFeed {
  private req: http.ClientRequest | undefined;
  private retry: NodeJS.Timeout | undefined;
  private wanted: FeedEndpoint | null = null;
  /** Refusals in a row: each doubles the wait before the next try. */
  private refusals = 0;

  constructor(
    private readonly onEntry: (entry: RequestLogEntry) => void,
    private readonly logger: Logger,
    private readonly retryMs = 1_000,
  ) {}

  /** Follow this engine (null = none): reconnects only when the endpoint changes. */
  follow(endpoint: FeedEndpoint | null): void {
    const same = endpoint && this.wanted && endpoint.baseUrl === this.wanted.baseUrl && endpoint.secret === this.wanted.secret;
    if (same) return;
    this.close();
    this.wanted = endpoint;
    this.refusals = 0;
    if (endpoint) this.open(endpoint);
  }

  close(): void {
    this.wanted = null;
    clearTimeout(this.retry);
    this.retry = undefined;
    this.req?.destroy();
    this.req = undefined;
  }

  get connected(): boolean {
    return this.req !== undefined;
  }

  private open(endpoint: FeedEndpoint): void {
    const req = http.get(`${endpoint.baseUrl}${REQUEST_STREAM_ROUTE}`, { agent: false, headers: { authorization: `Bearer ${endpoint.secret}` } }, (res) => {
      if (res.statusCode !== 200) {
        res.resume();
        if (this.refusals++ === 0 || this.waitMs() === MAX_RETRY_MS) this.logger.warn(`request feed: the engine answered ${res.statusCode}`);
        return;
      }
      this.refusals = 0;
      res.setEncoding('utf8');
      let buffered = '';
      res.on('data', (text: string) => {
        buffered += text;
        let nl: number;
        while ((nl = buffered.indexOf('\n')) !== -1) {
          const line = buffered.slice(0, nl);
          buffered = buffered.slice(nl + 1);
          if (line.length > 0) this.take(line);
        }
        if (buffered.length > MAX_LINE) buffered = '';
      });
    });
    this.req = req;
    req.on('error', () => undefined); // the close below decides what happens next
    req.once('close', () => {
      if (this.req !== req) return;
      this.req = undefined;
      if (this.wanted === endpoint) {
        this.retry = setTimeout(() => this.wanted === endpoint && this.open(endpoint), this.waitMs());
        this.retry.unref();
      }
    });
  }

  private waitMs(): number {
    return Math.min(MAX_RETRY_MS, this.retryMs * 2 ** Math.min(this.refusals, 16));
  }

  private take(line: string): void {
    try {
      const entry = readLogEntry(JSON.parse(line));
      if (entry) this.onEntry(entry);
      else this.logger.warn('request feed: skipped a line that is not a request-log entry');
    } catch (err) {
      this.logger.warn(`request feed: skipped a line: ${(err as Error).message}`);
    }
  }
}
