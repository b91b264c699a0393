import { Router } from 'express';
import { mapConfigAreaErrors } from './area-config-errors.js';
import { routeOn } from './route.js';
import type { RouterDeps } from './routers.js';
import { configPutBody, configPutError, configPutResponse, configResponse } from './schemas/app-config.js';

/** The application config, `{config_dir}/config.yaml`, as JSON (spec 2.5 and 4.3, decisions §3). */
export function createAppConfigRouter({ services, registry }: RouterDeps): Router {
  const router = Router();
  const route = routeOn(router, registry, 'config');
  const appConfig = services.appConfig;

  route({
    method: 'get',
    path: '/api/config',
    summary: 'The whole validated config with defaults filled and secrets masked as ********',
    response: configResponse,
    handler: () => appConfig.get(),
  });

  route({
    method: 'put',
    path: '/api/config',
    summary: 'Replace the whole config: validated, optimistic lock, ******** keeps secrets, comments survive',
    body: configPutBody,
    bodyError: configPutError,
    response: configPutResponse,
    handler: ({ body }) => appConfig.put(body.config, body.expectedMtime),
  });

  router.use(mapConfigAreaErrors);
  return router;
}
