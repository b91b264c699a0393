import { Router } from 'express';
import { UpstreamsService } from '../services/proxy/upstreams-service.js';
import { mapProxyErrors } from './proxy-errors.js';
import { routeOn } from './route.js';
import type { RouterDeps } from './routers.js';
import { upstreamHealthResponse } from './schemas/upstreams.js';

/** The proxy's upstreams as a list with their health (issue 30): what the Proxy page's Upstreams section shows. */
export function createUpstreamsRouter({ services, registry }: RouterDeps): Router {
  const router = Router();
  const route = routeOn(router, registry, 'proxy');
  const upstreams = new UpstreamsService(services.ctx, services.proxy);

  route({
    method: 'get',
    path: '/api/proxy/upstreams',
    summary: "Each upstream of proxy/config.yaml with its last hour from the request log: success rate, median latency, keys cooling down, failing",
    response: upstreamHealthResponse,
    handler: () => upstreams.health(),
  });

  router.use(mapProxyErrors);
  return router;
}
