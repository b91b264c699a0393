import type http from 'node:http';
import { anthropicErrorType, openAIErrorTypeAndCode } from '../translate/index.js';

/** The wire format a client speaks, judged from the route it called. */
export type ClientFormat = 'anthropic' | 'openai';

/** By route alone: Messages routes are Anthropic, everything else OpenAI. */
export function clientFormatFor(pathname: string): ClientFormat {
  return /\/messages(\/|$)/.test(pathname) ? 'anthropic' : 'openai';
}

/**
 * By route, then by client: the Anthropic SDKs send `anthropic-version` on every call, so their
 * `GET /v1/models/{id}` (a route both formats share) and their refusals get Anthropic shapes.
 */
export function clientFormatOf(req: http.IncomingMessage, pathname: string): ClientFormat {
  if (clientFormatFor(pathname) === 'anthropic') return 'anthropic';
  return req.headers['anthropic-version'] !== undefined ? 'anthropic' : 'openai';
}

/**
 * An error body in the client's own format (Anthropic `{type:"error",...}` or OpenAI
 * `{error:{...}}`), with the translator's type tables, so one status has one type on every path
 * (a stalled upstream is `timeout_error` / `server_error` wherever it stalled).
 */
export function clientErrorBody(format: ClientFormat, status: number, message: string): Record<string, unknown> {
  if (format === 'anthropic') return { type: 'error', error: { type: anthropicErrorType(status), message } };
  const { type, code } = openAIErrorTypeAndCode(status);
  return { error: { message, type, code } };
}

export function sendJson(res: http.ServerResponse, status: number, body: unknown, headers: http.OutgoingHttpHeaders = {}): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text), ...headers });
  res.end(text);
}

export function sendClientError(res: http.ServerResponse, format: ClientFormat, status: number, message: string): void {
  sendJson(res, status, clientErrorBody(format, status, message));
}
