import express, { type Express, type RequestHandler, type Router } from 'express';
import type { Logger } from '../infra/logger.js';
import { refuseDeepJson } from '../infra/json-depth.js';
import { errorHandler, notFound } from './middleware/errors.js';
import { hostGuard, originGuard } from './middleware/guards.js';
import { requestLog } from './middleware/request-log.js';
import { RouteRegistry } from './route.js';
import { areaRouters, type RouterDeps } from './routers.js';
import type { Services } from '../services/index.js';
import type { HotAnswers } from './hot-answers.js';
import { createDashboardRouter } from './dashboard.js';

export interface ApiServerDeps {
  services: Services;
  logger: Logger;
  /** Directory of the built dashboard; `/` serves it. */
  rendererDir: string;
  /** Remembers read answers for the server to hand out before Express (runtime.ts). */
  hot?: HotAnswers;
}

/** Builds the Express app without listening, so tests and the desktop shell share it. */
export function createApiServer(deps: ApiServerDeps): { app: Express; registry: RouteRegistry } {
  const registry = new RouteRegistry();
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  app.set('query parser', 'simple');
  app.use(requestLog(deps.logger));
  app.use(hostGuard);
  app.use(originGuard);
  app.use('/api', express.json({ limit: '1mb', type: ['application/json', 'application/*+json'], verify: refuseDeepJson }));
  const routerDeps: RouterDeps = { services: deps.services, registry, logger: deps.logger, hot: deps.hot };
  for (const create of areaRouters) {
    const first = registry.routes.length;
    const router = create(routerDeps);
    app.use(onlyUnder(areaPrefixes(registry.routes.slice(first).map((r) => r.path)), router));
  }
  app.use('/api', notFound(registry));
  app.use(createDashboardRouter(deps.rendererDir));
  // What the dashboard does not serve (other methods, upgrades): JSON like every API error.
  app.use(notFound(registry));
  app.use(errorHandler(deps.logger));
  return { app, registry };
}

/** `/api/<area>` of each route path: where an area router can match at all. */
function areaPrefixes(paths: string[]): string[] {
  return [...new Set(paths.map((p) => p.split('/').slice(0, 3).join('/')))];
}

/**
 * Hands a request to an area router only when its path is under one of the area's prefixes.
 * Express otherwise walks every route of every area in turn, which was a fifth of the CPU time
 * of a cached read under load.
 */
function onlyUnder(prefixes: string[], router: Router): RequestHandler {
  if (prefixes.length === 0) return router;
  const handler: RequestHandler = (req, res, next) => {
    const p = req.path;
    if (prefixes.some((prefix) => p === prefix || p.startsWith(`${prefix}/`))) router(req, res, next);
    else next();
  };
  // Keep the router's stack visible to tools (and tests) that walk the app's routes.
  return Object.assign(handler, { stack: router.stack });
}
