import type http from 'node:http';
import type { ClientFormat } from '../client-errors.js';
import { maskedHeaderLines, maskUrl } from './mask.js';
import type { TokenCounts } from './request-entry.js';

/** Bodies beyond this are cut in the log (a Claude Code request with images can be megabytes). */
const BODY_LIMIT = 1024 * 1024;

export interface AttemptRecord {
  timestamp: number;
  upstream: string;
  /** e.g. `key 2 of 3`, or `no key`. */
  keyLabel: string;
  url: string;
  headers: Record<string, string>;
  body: Buffer;
  status?: number;
  responseBody?: string;
  error?: string;
}

/**
 * Everything one client request did, kept cheaply (references, no copies) while it runs: the
 * request log's entry is built from it, and the error log is formatted from it only when it
 * failed (final status ≥ 400, a stream that broke, or any upstream attempt failed).
 */
export class RequestRecord {
  readonly attempts: AttemptRecord[] = [];
  status = 0;
  responseBody = '';
  modelRequested: string | null = null;
  modelSent: string | null = null;
  upstream: string | null = null;
  keyIndex: number | null = null;
  /** The subscription account that served (its e-mail), for account upstreams. */
  account: string | null = null;
  /** `cliproxy` when the managed CLIProxyAPI served it (agy, kiro, gemini). */
  via: 'cliproxy' | null = null;
  session: string | null = null;
  /** When the first byte of a stream went to the client. */
  firstByteAt: number | null = null;
  tokens: TokenCounts | null = null;
  /** Numbers in the upstream's usage that were not token counts (UsageSniffer.refused). */
  refusedNumbers = 0;
  /** The failure the client was told about (or the stream's), in words. */
  error: string | null = null;
  /** Set when a stream failed after its 200 went out: the status its error frame carried. */
  streamFailedStatus: number | null = null;

  constructor(
    readonly req: http.IncomingMessage,
    readonly startedAt: number,
    readonly format: ClientFormat,
    public body: Buffer = Buffer.alloc(0),
  ) {}

  /** The usage the upstream reported (the last attempt's), and how many of its numbers were refused. */
  takeUsage(usage: { tokens(): TokenCounts | null; refused: number }): void {
    this.tokens = usage.tokens();
    this.refusedNumbers += usage.refused;
  }

  addAttempt(attempt: AttemptRecord): AttemptRecord {
    this.attempts.push(attempt);
    return attempt;
  }

  finish(status: number, body: string): void {
    this.status = status;
    this.responseBody = body;
  }

  /** A stream that broke after its start: the client got a 200, then an error frame. */
  streamFailed(status: number, message: string): void {
    this.streamFailedStatus = status;
    this.error = message;
  }

  get failed(): boolean {
    return this.status >= 400 || this.streamFailedStatus !== null || this.attempts.some((a) => a.error !== undefined || (a.status !== undefined && a.status >= 400));
  }
}

/**
 * The text of an error log (decisions §4): `=== Request ===` (request line, masked headers, a
 * blank line, body), one `=== Upstream Request n ===` / `=== Upstream Response n ===` pair per
 * attempt, and `=== Response ===` with `Status: <code>` and the body sent to the client.
 */
export function formatErrorLog(record: RecordLike): string {
  const out: string[] = [];
  const req = record.req;
  out.push('=== Request ===');
  out.push(`${req.method ?? 'POST'} ${maskUrl(req.url ?? '/')} HTTP/${req.httpVersion}`);
  out.push(`Timestamp: ${new Date(record.startedAt).toISOString()}`);
  out.push(...maskedHeaderLines(req.headers));
  out.push('', bodyText(record.body), '');
  record.attempts.forEach((a, i) => {
    const n = i + 1;
    out.push(`=== Upstream Request ${n} ===`);
    out.push(`Timestamp: ${new Date(a.timestamp).toISOString()}`);
    out.push(`Upstream: ${a.upstream} (${a.keyLabel})`);
    out.push(`POST ${maskUrl(a.url)}`);
    out.push(...maskedHeaderLines(a.headers));
    out.push('', bodyText(a.body), '');
    out.push(`=== Upstream Response ${n} ===`);
    if (a.status !== undefined) out.push(`Upstream Status: ${a.status}`);
    if (a.error !== undefined) out.push(`Error: ${a.error}`);
    out.push('', a.responseBody !== undefined ? bodyText(a.responseBody) : '<no body>', '');
  });
  out.push('=== Response ===');
  if (record.streamFailedStatus != null) {
    // The 200 went out before the failure; the listing shows what the stream really ended with.
    out.push(`Status: ${record.streamFailedStatus}`);
    out.push(`Outcome: stream_error (status line 200 sent before the stream failed: ${record.error ?? 'unknown'})`);
  } else {
    out.push(`Status: ${record.status}`);
  }
  out.push('', bodyText(record.responseBody), '');
  return out.join('\n');
}

export type RecordLike = Pick<RequestRecord, 'req' | 'startedAt' | 'body' | 'attempts' | 'status' | 'responseBody'> &
  Partial<Pick<RequestRecord, 'streamFailedStatus' | 'error'>>;

function bodyText(body: Buffer | string): string {
  const length = typeof body === 'string' ? Buffer.byteLength(body) : body.length;
  if (length === 0) return '<empty>';
  if (length <= BODY_LIMIT) return typeof body === 'string' ? body : body.toString('utf8');
  const head = (typeof body === 'string' ? Buffer.from(body) : body).subarray(0, BODY_LIMIT).toString('utf8');
  return `${head}\n[... ${length - BODY_LIMIT} more bytes not logged]`;
}
