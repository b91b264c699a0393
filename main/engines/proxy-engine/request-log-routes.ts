import type http from 'node:http';
import { sendJson } from './client-errors.js';
import type { EngineContext } from './context.js';
import { parseRequestFilter, requestStats } from './traffic/request-query.js';
import { trafficState } from './traffic/state.js';

/** The request log over the management channel (loopback, management secret; see management.ts). */
export const REQUESTS_ROUTE = '/v0/management/requests';
export const REQUEST_STATS_ROUTE = '/v0/management/requests/stats';
/** One JSON entry per line as each request finishes (`\n` alone every 15 s keeps it open). */
export const REQUEST_STREAM_ROUTE = '/v0/management/requests/stream';

const HEARTBEAT_MS = 15_000;

/** Answers one request-log route; false when `pathname` is not one. */
export function handleRequestLogRoute(req: http.IncomingMessage, res: http.ServerResponse, ctx: EngineContext, pathname: string, headers: http.OutgoingHttpHeaders): boolean {
  if (req.method !== 'GET') return false;
  const log = trafficState(ctx).requestLog;
  if (pathname === REQUESTS_ROUTE) {
    const query = new URL(req.url ?? '/', 'http://engine').searchParams;
    const parsed = parseRequestFilter((name) => query.get(name) ?? undefined);
    if (!parsed.ok) sendJson(res, 400, { error: 'Invalid request log filter', message: parsed.message, field: parsed.field }, headers);
    else sendJson(res, 200, log.query(parsed.filter), headers);
    return true;
  }
  if (pathname === REQUEST_STATS_ROUTE) {
    const now = ctx.now();
    sendJson(res, 200, { ...requestStats(log.perMinute(now), now, log.lastError()), refusedNumbers: log.refusedNumbers, skippedLines: 0 }, headers);
    return true;
  }
  if (pathname === REQUEST_STREAM_ROUTE) {
    res.writeHead(200, { ...headers, 'content-type': 'application/x-ndjson' });
    res.flushHeaders();
    const unsubscribe = log.subscribe({ entry: (_entry, line) => res.write(`${line}\n`), end: () => res.end() });
    const heartbeat = setInterval(() => res.write('\n'), HEARTBEAT_MS);
    heartbeat.unref();
    res.once('close', () => {
      clearInterval(heartbeat);
      unsubscribe();
    });
    return true;
  }
  return false;
}
