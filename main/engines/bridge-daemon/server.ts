import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import { answerClientErrorsAsJson, pathOfRawPacket } from '../../infra/client-error.js';
import type { Clock } from '../../infra/clock.js';
import type { Logger } from '../../infra/logger.js';
import { ModelCatalog } from './catalog.js';
import { checkClientToken } from './client-auth.js';
import { handleChatCompletions } from './route-chat.js';
import { handleCountTokens } from './route-count-tokens.js';
import { handleMessages } from './route-messages.js';
import { MAX_BODY_BYTES } from './request-body.js';
import { fetchUpstreamModels, type UpstreamCredentials, type UpstreamOptions } from './upstream.js';
import { errorBody, sendError, sendJson, type ErrorFormat } from './wire-errors.js';
import type { ModelChoice } from './model-map.js';

export const SERVICE_NAME = 'switchboard-bridge';

export interface BridgeServerOptions {
  upstream: UpstreamOptions;
  models: ModelChoice;
  /** The token clients must send (Bearer or x-api-key). */
  clientToken: string;
  /** Read per request, so a re-import takes effect without a restart. */
  readCredentials: () => Promise<UpstreamCredentials | null>;
  clock: Clock;
  logger: Logger;
  maxBodyBytes?: number;
  modelsTtlMs?: number;
}

/** What the route handlers share. */
export interface BridgeContext extends BridgeServerOptions {
  catalog: ModelCatalog;
  maxBodyBytes: number;
}

type Handler = (req: IncomingMessage, res: ServerResponse, ctx: BridgeContext) => Promise<void>;

const routes: Record<string, { method: string; format: ErrorFormat; handler: Handler }> = {
  '/v1/chat/completions': { method: 'POST', format: 'openai', handler: handleChatCompletions },
  '/v1/messages': { method: 'POST', format: 'anthropic', handler: handleMessages },
  '/v1/messages/count_tokens': { method: 'POST', format: 'anthropic', handler: handleCountTokens },
  '/v1/models': { method: 'GET', format: 'openai', handler: listModels },
};

/** The daemon's HTTP surface (decisions §6), without listening, so tests drive it in-process. */
export function createBridgeServer(options: BridgeServerOptions): http.Server {
  const ctx: BridgeContext = {
    ...options,
    maxBodyBytes: options.maxBodyBytes ?? MAX_BODY_BYTES,
    catalog: new ModelCatalog({
      clock: options.clock,
      logger: options.logger,
      ttlMs: options.modelsTtlMs,
      fetchUpstream: async () => fetchUpstreamModels(options.upstream, await options.readCredentials()),
    }),
  };
  const server = http.createServer((req, res) => {
    dispatch(req, res, ctx).catch((err: unknown) => {
      options.logger.error(`bridge: ${req.method} ${pathOf(req)} failed: ${err instanceof Error ? err.message : String(err)}`);
      if (!res.headersSent) sendError(res, routes[pathOf(req)]?.format ?? formatOf(req, pathOf(req)), 500, 'Internal error in the bridge daemon');
      else res.destroy();
    });
  });
  server.keepAliveTimeout = 5_000;
  // Requests Node's parser refuses (431, 400) answer in the route's error format, not an empty body.
  answerClientErrorsAsJson(server, ({ status, message }, raw) => errorBody(routes[pathOfRawPacket(raw).replace(/\/+$/, '')]?.format ?? 'openai', status, message));
  return server;
}

async function dispatch(req: IncomingMessage, res: ServerResponse, ctx: BridgeContext): Promise<void> {
  const path = pathOf(req);
  if (path === '/health' && (req.method === 'GET' || req.method === 'HEAD')) {
    sendJson(res, 200, { ok: true, service: SERVICE_NAME });
    return;
  }
  const route = routes[path];
  if (!route) {
    sendError(res, formatOf(req, path), 404, `No route for ${req.method} ${path}`);
    return;
  }
  if (req.method !== route.method) {
    sendError(res, route.format, 405, `Use ${route.method} for ${path}`, { allow: route.method });
    return;
  }
  const auth = checkClientToken(req, ctx.clientToken);
  if (auth !== 'ok') {
    const message = auth === 'missing' ? 'Missing API key: send the bridge daemon token as Bearer or x-api-key' : 'Invalid API key';
    sendError(res, route.format, 401, message);
    return;
  }
  await route.handler(req, res, ctx);
}

async function listModels(_req: IncomingMessage, res: ServerResponse, ctx: BridgeContext): Promise<void> {
  sendJson(res, 200, { object: 'list', data: await ctx.catalog.list() });
}

/** Off the route table: Messages paths and clients sending `anthropic-version` get Anthropic errors. */
function formatOf(req: IncomingMessage, path: string): ErrorFormat {
  return /\/messages(\/|$)/.test(path) || req.headers['anthropic-version'] !== undefined ? 'anthropic' : 'openai';
}

function pathOf(req: IncomingMessage): string {
  const url = req.url ?? '/';
  const q = url.indexOf('?');
  return (q >= 0 ? url.slice(0, q) : url).replace(/\/+$/, '') || '/';
}
