import type { ServerResponse } from 'node:http';
import { anthropicError, openAIError, toAnthropicError, toOpenAIError } from '../translate/index.js';

/** Each route answers errors in its clients' own format (decisions §6). */
export type ErrorFormat = 'openai' | 'anthropic';

export function errorBody(format: ErrorFormat, status: number, message: string): unknown {
  return format === 'anthropic' ? anthropicError(status, message) : openAIError(status, message);
}

/** An upstream error body of any shape, rewritten into the route's format. */
export function upstreamErrorBody(format: ErrorFormat, status: number, text: string): unknown {
  return format === 'anthropic' ? toAnthropicError(status, text) : toOpenAIError(status, text);
}

export function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  if (res.headersSent) {
    res.destroy();
    return;
  }
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(text)), ...headers });
  res.end(text);
}

export function sendError(res: ServerResponse, format: ErrorFormat, status: number, message: string, headers: Record<string, string> = {}): void {
  sendJson(res, status, errorBody(format, status, message), headers);
}
