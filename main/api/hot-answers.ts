import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Clock } from '../infra/clock.js';
import { allowedHost } from './middleware/guards.js';

/** Where answers come from; a remembered answer holds while its stamp is the source's. */
export interface StampSource {
  answersStamp(): string;
  /** Told of every remembered answer handed out, to start what a read would (a background refresh). */
  rememberedRead(): void;
}

const NO_SOURCE: StampSource = { answersStamp: () => '', rememberedRead: () => undefined };

interface Entry {
  body: Buffer;
  stamp: string;
  until: number;
  /** Depends on nothing but the data: may be saved for the next start (see warm-answers.ts). */
  lasting: boolean;
}

/** Enough for every view the dashboard asks for in a few zones and windows. */
const MAX_ENTRIES = 256;
const MAX_BODY_BYTES = 1 << 20;
const JSON_TYPE = 'application/json; charset=utf-8';

/**
 * JSON answers of GET requests that the service says stay the same for a while, keyed by the exact
 * request target (path and query as sent). The server hands a request here before Express: a
 * repeated read of cached usage then costs a map lookup and one write instead of the router,
 * middleware and validation (about 200 µs, most of the CPU time of a cached read under load).
 * Only a URL that Express answered with 200 is remembered, so an identical URL would pass the same
 * validation; the Host guard runs here too, and nothing else of the stack applies to a body-less
 * GET (the Origin guard only refuses writes). These answers are not in the debug request log:
 * building its line cost as much as the rest of the lookup.
 */
export class HotAnswers {
  private readonly entries = new Map<string, Entry>();
  private source: StampSource;

  constructor(
    private readonly clock: Clock,
    source: StampSource = NO_SOURCE,
  ) {
    this.source = source;
  }

  /** Serves from a new source (the usage service once it runs); what was remembered goes. */
  attach(source: StampSource): void {
    this.source = source;
    this.entries.clear();
  }

  remember(url: string, text: string, stamp: string, until: number, lasting: boolean): void {
    if (stamp !== this.source.answersStamp() || until <= this.clock.now()) return;
    const body = Buffer.from(text, 'utf8');
    if (body.length > MAX_BODY_BYTES) return;
    if (!this.entries.has(url) && this.entries.size >= MAX_ENTRIES) this.dropExpired();
    if (this.entries.size >= MAX_ENTRIES) this.entries.delete(this.entries.keys().next().value!);
    this.entries.set(url, { body, stamp, until, lasting });
  }

  /** The remembered bytes for this request target, if they are still the answer. */
  lookup(url: string): Buffer | undefined {
    const e = this.entries.get(url);
    if (e === undefined) return undefined;
    if (e.stamp === this.source.answersStamp() && this.clock.now() < e.until) return e.body;
    this.entries.delete(url);
    return undefined;
  }

  /** Valid answers that hold across a restart with the same data, for the warm-answers file. */
  lastingAnswers(): Array<[url: string, body: string]> {
    const out: Array<[string, string]> = [];
    for (const [url, e] of this.entries) if (e.lasting && this.lookup(url) !== undefined) out.push([url, e.body.toString('utf8')]);
    return out;
  }

  /**
   * Answers the request when it is a body-less GET of a remembered, still valid URL from an
   * allowed Host; false hands it on, untouched.
   */
  serve(req: IncomingMessage, res: ServerResponse): boolean {
    if (req.method !== 'GET' || req.url === undefined) return false;
    if (req.headers['content-length'] !== undefined && req.headers['content-length'] !== '0') return false;
    if (req.headers['transfer-encoding'] !== undefined) return false;
    const body = this.lookup(req.url);
    if (body === undefined || !allowedHost(req.headers.host, req.socket.localPort)) return false;
    res.writeHead(200, { 'Content-Type': JSON_TYPE, 'Content-Length': body.length });
    res.end(body);
    this.source.rememberedRead();
    return true;
  }

  private dropExpired(): void {
    for (const url of [...this.entries.keys()]) this.lookup(url);
  }
}
