/**
 * One line of the request log (issue 19): what a finished client request did, never its body
 * or a key. The engine writes it without `costUSD`; the management side prices it from the
 * price table when it reads or streams it (engines may not load the services' pricing).
 */
export type RequestOutcome = 'ok' | 'error' | 'stream_error' | 'aborted';

export interface TokenCounts {
  /** Input tokens not served from the cache (Anthropic's `input_tokens`). */
  input: number;
  output: number;
  cacheRead: number;
  cacheWrite: number;
}

/**
 * The rule for a token count from outside (an upstream's usage, a line of the log file): a
 * non-negative safe integer, as for a transcript's counts (decisions §5). 1e308, -5, 2.5 and 2^60
 * are refused, never stored: a sum of them is Infinity or silently inexact.
 */
export function isTokenCount(v: unknown): v is number {
  return typeof v === 'number' && Number.isSafeInteger(v) && v >= 0;
}

export interface RequestLogEntry {
  /** Unique within the log: `<engine start, base 36>-<sequence>`. */
  id: string;
  /** ms since epoch when the request arrived. */
  time: number;
  format: 'anthropic' | 'openai';
  method: string;
  /** The path without its query string. */
  path: string;
  modelRequested: string | null;
  /** The model id sent upstream (after `model_aliases`). */
  modelSent: string | null;
  /** The upstream of the last attempt. */
  upstream: string | null;
  /** 0-based position of the key in the upstream's `api_key` list (the error log's "key 1 of 2" is 0). */
  keyIndex: number | null;
  /** The subscription account that served (its e-mail); absent for API-key upstreams. */
  account?: string | null;
  /** `cliproxy`: forwarded to the managed CLIProxyAPI, which chose the account (agy, kiro, gemini). */
  via?: 'cliproxy';
  /** What the client got; for a stream that failed after its 200, the status its error frame carried. */
  status: number;
  outcome: RequestOutcome;
  latencyMs: number;
  /** Until the first byte of a stream reached the client; null for whole (non-stream) answers. */
  ttfbMs: number | null;
  tokens: TokenCounts | null;
  session: string | null;
  error: string | null;
  /** The error-*.log file written for this request. */
  errorLog: string | null;
}

/**
 * A failure for the `status=error` filter and the error counts: an error answer (≥ 400) or a
 * stream that broke after it started. A client that hung up (`aborted`, status 499) is not one:
 * pressing Esc in Claude Code does that all day.
 */
export function isErrorEntry(e: Pick<RequestLogEntry, 'outcome'>): boolean {
  return e.outcome === 'error' || e.outcome === 'stream_error';
}
