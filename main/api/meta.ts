import { Router } from 'express';
import { buildOpenApi } from './openapi.js';
import { routeOn } from './route.js';
import type { RouterDeps } from './routers.js';

/** The API describing itself. */
export function createMetaRouter({ registry }: RouterDeps): Router {
  const router = Router();
  const route = routeOn(router, registry, 'meta');
  // Routes are all registered before the first request; build the document once.
  let document: Record<string, unknown> | undefined;
  route({
    method: 'get',
    path: '/api/openapi.json',
    summary: 'OpenAPI 3.1 description of every route, generated from the zod schemas',
    handler: () => (document ??= buildOpenApi(registry)),
  });
  return router;
}
