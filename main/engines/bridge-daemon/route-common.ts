import type { IncomingMessage, ServerResponse } from 'node:http';
import { resolveModel } from './model-map.js';
import { readBody } from './request-body.js';
import type { BridgeContext } from './server.js';
import type { UpstreamCredentials } from './upstream.js';
import { sendError, sendJson, upstreamErrorBody, type ErrorFormat } from './wire-errors.js';

export interface PreparedRequest {
  body: Record<string, unknown>;
  model: string;
  creds: UpstreamCredentials;
  /** Aborted the moment the client goes away before the answer is complete. */
  signal: AbortSignal;
}

/**
 * The steps both chat routes share: body (413 over the limit), JSON, credentials, model
 * resolution, and the abort signal tied to the client connection. Answers the error itself
 * and returns null when the request cannot go on.
 */
export async function prepareRequest(
  req: IncomingMessage,
  res: ServerResponse,
  ctx: BridgeContext,
  format: ErrorFormat,
): Promise<PreparedRequest | null> {
  const controller = new AbortController();
  res.once('close', () => {
    if (!res.writableFinished) controller.abort();
  });
  const read = await readBody(req, ctx.maxBodyBytes);
  if (!read.ok) {
    if (read.reason === 'too-large') refuseTooLarge(req, res, ctx, format, read.drained);
    return null;
  }
  let body: unknown;
  try {
    body = JSON.parse(read.body.toString('utf8'));
  } catch {
    sendError(res, format, 400, 'Request body is not valid JSON');
    return null;
  }
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    sendError(res, format, 400, 'Request body must be a JSON object');
    return null;
  }
  const creds = await ctx.readCredentials();
  if (!creds) {
    sendError(res, format, 503, 'Bridge credentials missing: run `switchboard bridge auth`');
    return null;
  }
  const record = body as Record<string, unknown>;
  const resolved = resolveModel(record.model, await ctx.catalog.list(), ctx.models);
  if (resolved.fellBackFrom !== undefined) {
    ctx.logger.debug(`bridge: model ${resolved.fellBackFrom} is not in the catalog; using default ${resolved.model}`);
  }
  return { body: record, model: resolved.model, creds, signal: controller.signal };
}

/**
 * 413, then the connection is closed. Usually the body was read to its end first (request-body.ts),
 * so the client has finished writing and reads the answer; otherwise the rest of the body is
 * dropped as it arrives (never buffered) and the socket is cut if the client keeps sending.
 */
export function refuseTooLarge(req: IncomingMessage, res: ServerResponse, ctx: BridgeContext, format: ErrorFormat, drained: boolean): void {
  sendError(res, format, 413, `Request body exceeds the ${ctx.maxBodyBytes} byte limit`, { connection: 'close' });
  if (drained) return;
  req.resume();
  const timer = setTimeout(() => req.socket.destroy(), 2_000);
  timer.unref();
  req.once('end', () => clearTimeout(timer));
}

/** Sends an upstream failure in the route's own error format, keeping the upstream's message. */
export async function relayUpstreamError(res: ServerResponse, upstream: Response, format: ErrorFormat): Promise<void> {
  const text = await upstream.text().catch(() => '');
  const status = upstream.status >= 400 ? upstream.status : 502;
  sendJson(res, status, upstreamErrorBody(format, status, text));
}

/** True when the failure is our own abort after the client left. */
export function isAbort(err: unknown, signal: AbortSignal): boolean {
  return signal.aborted || (err instanceof Error && err.name === 'AbortError');
}

