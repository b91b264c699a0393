import http from 'node:http';
import { authorizeClient } from './client-auth.js';
import { answerClientErrorsAsJson, pathOfRawPacket } from '../../infra/client-error.js';
import { clientErrorBody, clientFormatFor, sendClientError, sendJson } from './client-errors.js';
import type { EngineContext } from './context.js';
import { handleManagement, MANAGEMENT_PREFIX } from './management.js';
import { listModels } from './models.js';
import { handleTraffic } from './traffic/index.js';

/** The health answer of `GET /`: what the supervisor polls for readiness. */
export const HEALTH_MESSAGE = 'Switchboard proxy engine';

/**
 * The engine's HTTP surface on plain node:http (no framework: the added latency per request
 * must stay well under a millisecond). Built without listening so tests can drive it in-process.
 */
export function createEngineServer(ctx: EngineContext): http.Server {
  const server = http.createServer((req, res) => {
    dispatch(req, res, ctx).catch((err: unknown) => {
      ctx.logger.error(`${req.method} ${pathOf(req)} failed: ${err instanceof Error ? err.message : String(err)}`);
      if (!res.headersSent) sendClientError(res, clientFormatFor(pathOf(req)), 500, 'Internal proxy error');
      else res.destroy();
    });
  });
  server.keepAliveTimeout = 65_000;
  // Requests Node's parser refuses (431, 400) answer in the client's format too, not an empty body.
  answerClientErrorsAsJson(server, ({ status, message }, raw) => clientErrorBody(clientFormatFor(pathOfRawPacket(raw)), status, message));
  return server;
}

async function dispatch(req: http.IncomingMessage, res: http.ServerResponse, ctx: EngineContext): Promise<void> {
  const pathname = pathOf(req);
  if (pathname === '/' && (req.method === 'GET' || req.method === 'HEAD')) {
    return sendJson(res, 200, { message: HEALTH_MESSAGE, version: ctx.version, endpoints: ['POST /v1/messages', 'POST /v1/chat/completions', 'GET /v1/models'] });
  }
  if (pathname.startsWith(MANAGEMENT_PREFIX)) return handleManagement(req, res, ctx, pathname);
  const isClientRoute = pathname.startsWith('/v1/') || pathname.startsWith('/api/provider/');
  if (!isClientRoute) return sendJson(res, 404, { error: 'Not found' });
  if (!authorizeClient(req, res, ctx, pathname)) return;
  if (pathname === '/v1/models' && req.method === 'GET') return sendJson(res, 200, listModels(ctx));
  if ((req.method === 'POST' || pathname.startsWith('/api/provider/')) && (await handleTraffic(req, res, ctx))) return;
  req.resume();
  sendClientError(res, clientFormatFor(pathname), 404, `Unknown route: ${req.method} ${pathname}`);
}

/** The path without the query string. */
function pathOf(req: http.IncomingMessage): string {
  const url = req.url ?? '/';
  const q = url.indexOf('?');
  return q === -1 ? url : url.slice(0, q);
}
