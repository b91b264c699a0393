import type http from 'node:http';
import { StringDecoder } from 'node:string_decoder';
import { SSE_HEADERS, type SseTranslator } from '../../translate/index.js';
import type { Hangup } from './hangup.js';
import { closedByUpstream, type UpstreamResponse } from './upstream-response.js';

export type RelayOutcome =
  /** The whole stream reached the client. */
  | { kind: 'done' }
  /** Failed before anything was sent: the caller may try another key or answer with a JSON error. */
  | { kind: 'retry'; status: number; message: string }
  /** Failed after the headers went out: an error frame in the client's format closed the stream. */
  | { kind: 'broken'; status: number; message: string }
  /** The client went away; the upstream request was destroyed. */
  | { kind: 'aborted' };

export interface RelayOptions {
  /** Translates upstream SSE to the client's format; absent = bytes pass through untouched. */
  translator?: SseTranslator;
  /** The client-format error frame for a passthrough stream that breaks after its headers. */
  errorFrame: (status: number, message: string) => string;
  /** Longest silence before the first chunk and between chunks. */
  idleMs: number;
  hangup: Hangup;
  headers: Record<string, string>;
  /** Sees every upstream chunk (the request log reads usage and error events from them). */
  observe?: (chunk: Buffer | string) => void;
  /** The 200 and the first bytes went to the client. */
  onCommit?: () => void;
}

/**
 * Streams an upstream SSE body to the client without buffering. The 200 and its headers are
 * written only with the first client bytes, so a stream that dies before any data still gets a
 * proper JSON error (and another key) from the caller. Backpressure: a slow client pauses the
 * upstream read.
 */
export function relayStream(upstream: UpstreamResponse, res: http.ServerResponse, options: RelayOptions): Promise<RelayOutcome> {
  const { translator, hangup } = options;
  return new Promise((resolve) => {
    let committed = false;
    let settled = false;
    let received = 0;
    const timer = setTimeout(() => fail(504, stallMessage(options.idleMs)), options.idleMs);
    hangup.onGone(() => {
      upstream.destroy();
      settle({ kind: 'aborted' });
    });

    function settle(outcome: RelayOutcome): void {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      hangup.onGone(undefined);
      resolve(outcome);
    }
    function commit(): void {
      committed = true;
      res.writeHead(200, { ...SSE_HEADERS, ...options.headers });
      options.onCommit?.();
    }
    function fail(status: number, message: string): void {
      if (settled) return;
      upstream.destroy();
      if (hangup.gone) return settle({ kind: 'aborted' });
      if (!committed) return settle({ kind: 'retry', status, message });
      res.end(translator ? translator.fail(status, message) : options.errorFrame(status, message));
      settle({ kind: 'broken', status, message });
    }

    // Writes wait in the corked socket until this turn of the event loop has handled its reads:
    // an upstream's last event and its end usually come in one read, and then they leave in one
    // write (res.end uncorks) instead of two, a syscall per stream saved. Nothing waits longer.
    // The socket's cork, not the response's: a corked chunked response (Node 24; not 20) holds its
    // chunks back and lets end() write the terminator before them.
    let corked: NonNullable<typeof res.socket> | null = null;
    const uncork = () => {
      corked?.uncork();
      corked = null;
    };
    // The translator reads text: a character cut between two chunks is joined first.
    const decoder = translator ? new StringDecoder('utf8') : undefined;
    function forward(out: Buffer | string): void {
      if (out.length === 0) return;
      if (!committed) commit();
      if (!corked && res.socket) {
        corked = res.socket;
        corked.cork();
        setImmediate(uncork);
      }
      if (!res.write(out)) {
        upstream.pause();
        res.once('drain', () => upstream.resume());
      }
    }
    upstream.consume({
      data(chunk) {
        if (settled) return;
        received += chunk.length;
        timer.refresh();
        if (!decoder) {
          options.observe?.(chunk);
          forward(chunk);
          return;
        }
        const text = decoder.write(chunk);
        options.observe?.(text);
        forward(translator!.feed(text));
      },
      end() {
        if (settled) return;
        let tail = '';
        if (decoder) {
          const rest = decoder.end();
          if (rest) {
            options.observe?.(rest);
            tail = translator!.feed(rest);
          }
          tail += translator!.end();
        }
        if (!committed) {
          if (received === 0) return fail(502, 'Upstream ended the stream before sending any data');
          commit();
        }
        res.end(tail);
        settle({ kind: 'done' });
      },
      error(err) {
        fail(502, closedByUpstream(err) ? 'Upstream closed the connection mid-stream' : `Upstream stream failed: ${err.message}`);
      },
    });
  });
}

/** An upstream that went silent: 504 wherever it happens (before headers, mid-body, mid-stream). */
export class StallError extends Error {
  readonly status = 504;
  constructor(idleMs: number) {
    super(stallMessage(idleMs));
  }
}

export function stallMessage(idleMs: number): string {
  return `Upstream sent nothing for ${idleMs} ms`;
}

/**
 * Reads a whole (non-streaming) upstream body, with the idle limit between chunks and a size cap.
 * Rejects with an Error whose message is fit for the client.
 */
export function collectBody(upstream: UpstreamResponse, idleMs: number, limit: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let done = false;
    const stop = (err: Error) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      upstream.destroy(err);
      reject(err);
    };
    const timer = setTimeout(() => stop(new StallError(idleMs)), idleMs);
    upstream.consume({
      data(chunk) {
        if (done) return;
        timer.refresh();
        size += chunk.length;
        if (size > limit) return stop(new Error(`Upstream body larger than ${limit} bytes`));
        chunks.push(chunk);
      },
      end() {
        if (done) return;
        done = true;
        clearTimeout(timer);
        resolve(chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, size));
      },
      error(err) {
        stop(closedByUpstream(err) ? new Error('Upstream closed the connection before the body ended') : err);
      },
    });
  });
}
