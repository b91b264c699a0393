import http from 'node:http';
import { answerClientErrorsAsJson, pathOfRawPacket } from '../../infra/client-error.js';
import { clientAuthFailure } from './client-auth.js';
import { clientErrorBody, clientFormatFor, clientFormatOf, sendClientError, sendJson } from './client-errors.js';
import type { EngineContext } from './context.js';
import { handleManagement, MANAGEMENT_PREFIX } from './management.js';
import { findModel, listModels } from './models.js';
import { RequestRecord } from './traffic/error-log.js';
import { finishRequest } from './traffic/finish-request.js';
import { handleTraffic } from './traffic/index.js';
import { trafficState } from './traffic/state.js';
import { matchTrafficRoute, type TrafficRoute } from './traffic/routes.js';

/** The health answer of `GET /`: what the supervisor polls for readiness. */
export const HEALTH_MESSAGE = 'Switchboard proxy engine';

/**
 * The engine's HTTP surface on plain node:http (no framework: the added latency per request
 * must stay well under a millisecond). Built without listening so tests can drive it in-process.
 */
export function createEngineServer(ctx: EngineContext): http.Server {
  const server = http.createServer((req, res) => {
    dispatch(req, res, ctx).catch((err: unknown) => {
      const pathname = pathOf(req);
      ctx.logger.error(`${req.method} ${pathname} failed: ${err instanceof Error ? err.message : String(err)}`);
      if (!res.headersSent) sendClientError(res, clientFormatOf(req, pathname), 500, 'Internal proxy error');
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
  // Not an API path at all (a browser's favicon, a scanner): a plain 404, logged like the others.
  if (!isClientRoute) return refuse(req, res, ctx, pathname, 404, `Unknown route: ${req.method} ${pathname}`, { error: 'Not found' });
  const authFailure = clientAuthFailure(req, ctx);
  if (authFailure) return refuse(req, res, ctx, pathname, 401, authFailure);
  const route = matchTrafficRoute(req.method, pathname);
  if (!route) return refuse(req, res, ctx, pathname, 404, `Unknown route: ${req.method} ${pathname}`);
  const { endpoint } = route;
  if (endpoint === 'models' || endpoint === 'model') return answerModels(req, res, ctx, pathname, route);
  return handleTraffic(req, res, ctx, endpoint, route.pinned);
}

/**
 * A request refused before any routing (unknown route, bad API key): answered in the client's
 * error format, with an error log and a request-log entry like every other failure. Its body is
 * neither read nor logged: it comes from a client that did not prove who it is.
 */
function refuse(req: http.IncomingMessage, res: http.ServerResponse, ctx: EngineContext, pathname: string, status: number, message: string, plain?: object): void {
  req.resume();
  const format = clientFormatOf(req, pathname);
  const record = new RequestRecord(req, ctx.now(), format);
  const body = plain ?? clientErrorBody(format, status, message);
  record.finish(status, JSON.stringify(body));
  record.error = message;
  sendJson(res, status, body);
  finishRequest(ctx, record, pathname, false);
}

/** `GET /v1/models[/{id}]`, also pinned to one upstream under `/api/provider/<name>/`. */
async function answerModels(req: http.IncomingMessage, res: http.ServerResponse, ctx: EngineContext, pathname: string, route: TrafficRoute): Promise<void> {
  req.resume();
  const format = clientFormatOf(req, pathname);
  const { pinned, modelId } = route;
  const accounts = await trafficState(ctx).accounts.current();
  if (pinned !== undefined && !ctx.config.upstreams.some((u) => u.name === pinned) && !accounts.some((u) => u.name === pinned)) {
    return refuse(req, res, ctx, pathname, 404, `Unknown provider "${pinned}": no upstream of that name in proxy/config.yaml and no signed-in account of it`);
  }
  let body: unknown = listModels(ctx, pinned, accounts);
  if (modelId !== undefined) {
    body = findModel(ctx, modelId, format, pinned, accounts);
    if (!body) return refuse(req, res, ctx, pathname, 404, `Unknown model "${modelId}": no upstream in proxy/config.yaml lists it and no signed-in account serves it`);
  }
  const record = new RequestRecord(req, ctx.now(), format);
  record.modelRequested = modelId ?? null;
  record.finish(200, '<model list>');
  sendJson(res, 200, body);
  finishRequest(ctx, record, pathname, false);
}

/** The path without the query string. */
function pathOf(req: http.IncomingMessage): string {
  const url = req.url ?? '/';
  const q = url.indexOf('?');
  return q === -1 ? url : url.slice(0, q);
}
