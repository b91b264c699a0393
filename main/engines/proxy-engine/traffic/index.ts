import type http from 'node:http';
import type { EngineContext } from '../context.js';

/**
 * Routes client traffic (POST /v1/*, /api/provider/*) to the upstreams. Called by the server
 * after the API-key check; returns false when the route is not a traffic route, and the server
 * then answers 404 in the client's format. Filled in by the traffic-routing work (issue 6).
 */
export async function handleTraffic(_req: http.IncomingMessage, _res: http.ServerResponse, _ctx: EngineContext): Promise<boolean> {
  return false;
}
