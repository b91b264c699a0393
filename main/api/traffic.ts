import { Router } from 'express';
import { parseRequestFilter } from '../engines/proxy-engine/traffic/request-query.js';
import { E } from './error-texts.js';
import { ApiError } from './errors.js';
import { routeOn } from './route.js';
import type { RouterDeps } from './routers.js';
import { requestLogQuery, requestLogResponse, requestStatsResponse } from './schemas/traffic.js';

/** The proxy's request log (issue 19): history and per-minute stats; live entries go out on /api/events. */
export function createTrafficRouter({ services, registry }: RouterDeps): Router {
  const router = Router();
  const route = routeOn(router, registry, 'proxy');
  const traffic = services.proxy.traffic;

  route({
    method: 'get',
    path: '/api/proxy/requests',
    summary: 'Finished proxy requests, newest first (filters status, model, upstream, since; limit 1-1000)',
    query: requestLogQuery,
    queryError: E.invalidRequestLogFilter,
    response: requestLogResponse,
    noStore: true,
    handler: ({ query }) => {
      const parsed = parseRequestFilter((name) => query[name as keyof typeof query]);
      if (!parsed.ok) throw new ApiError(400, E.invalidRequestLogFilter, parsed.message);
      return traffic.list(parsed.filter);
    },
  });

  route({
    method: 'get',
    path: '/api/proxy/requests/stats',
    summary: 'Requests and errors per minute for the last hour, requests per minute, error rate, last error',
    response: requestStatsResponse,
    noStore: true,
    handler: () => traffic.stats(),
  });

  return router;
}
