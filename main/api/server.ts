import express, { type Express } from 'express';
import type { Logger } from '../infra/logger.js';
import { errorHandler, notFound } from './middleware/errors.js';
import { hostGuard, originGuard } from './middleware/guards.js';
import { requestLog } from './middleware/request-log.js';
import { RouteRegistry } from './route.js';
import { areaRouters, type RouterDeps } from './routers.js';
import type { Services } from '../services/index.js';
import { createDashboardRouter } from './dashboard.js';

export interface ApiServerDeps {
  services: Services;
  logger: Logger;
  /** Directory of the built dashboard; `/` serves it. */
  rendererDir: string;
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
  app.use('/api', express.json({ limit: '1mb', type: ['application/json', 'application/*+json'] }));
  const routerDeps: RouterDeps = { services: deps.services, registry, logger: deps.logger };
  for (const create of areaRouters) app.use(create(routerDeps));
  app.use('/api', notFound(registry));
  app.use(createDashboardRouter(deps.rendererDir));
  app.use(errorHandler(deps.logger));
  return { app, registry };
}
