import { Router, type NextFunction, type Request, type Response } from 'express';
import { UpstreamsFormError, UpstreamsService } from '../services/proxy/upstreams-service.js';
import { E } from './error-texts.js';
import { ApiError } from './errors.js';
import { mapProxyErrors } from './proxy-errors.js';
import { routeOn } from './route.js';
import type { RouterDeps } from './routers.js';
import { upstreamFormBody, upstreamFormResponse, upstreamHealthResponse } from './schemas/upstreams.js';

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

  route({
    method: 'put',
    path: '/api/proxy/upstreams',
    summary: 'The upstream form: the list replaces `upstreams` in proxy/config.yaml (validated, atomic, backup; comments and unknown keys kept); a running proxy restarts to load it',
    body: upstreamFormBody,
    bodyError: E.invalidUpstreams,
    response: upstreamFormResponse,
    handler: ({ body }) => upstreams.save(body.upstreams, body.expectedMtime),
  });

  router.use(mapFormErrors, mapProxyErrors);
  return router;
}

function mapFormErrors(err: unknown, _req: Request, _res: Response, next: NextFunction): void {
  next(err instanceof UpstreamsFormError ? new ApiError(400, E.invalidUpstreams, err.message) : err);
}
