import type { NextFunction, Request, Response } from 'express';
import { ApiError } from '../errors.js';
import { E } from '../error-texts.js';

const UNSAFE = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/** Accepts only `127.0.0.1:<port>` and `localhost:<port>` as Host, which stops DNS rebinding. */
export function hostGuard(req: Request, _res: Response, next: NextFunction): void {
  if (allowedHost(req.headers.host, req.socket.localPort)) return next();
  next(new ApiError(403, E.forbiddenHost));
}

/** The Host rule on its own, for the path that answers remembered reads before Express. */
export function allowedHost(header: string | undefined, port: number | undefined): boolean {
  const host = (header ?? '').toLowerCase();
  return host === `127.0.0.1:${port}` || host === `localhost:${port}`;
}

/**
 * Refuses writes a browser sends from another site. CLI clients send neither Origin nor
 * Sec-Fetch-Site and pass; the dashboard is same-origin and passes.
 */
export function originGuard(req: Request, _res: Response, next: NextFunction): void {
  if (!UNSAFE.has(req.method)) return next();
  const port = req.socket.localPort;
  const origin = req.headers.origin;
  if (origin !== undefined && origin !== `http://127.0.0.1:${port}` && origin !== `http://localhost:${port}`) {
    return next(new ApiError(403, E.crossOrigin));
  }
  const site = req.headers['sec-fetch-site'];
  if (site !== undefined && site !== 'same-origin' && site !== 'none') {
    return next(new ApiError(403, E.crossOrigin));
  }
  next();
}
