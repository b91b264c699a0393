import type { Request, Response, Router } from 'express';
import { z } from 'zod';
import { ApiError } from './errors.js';
import { describeIssue } from '../infra/zod-issue.js';

export type Method = 'get' | 'post' | 'put' | 'patch' | 'delete';
export type ResponseKind = 'json' | 'text' | 'yaml' | 'octet-stream' | 'event-stream' | 'html';

/** What the API knows about one route: used to mount it, to answer 405, and for /api/openapi.json. */
export interface RouteInfo {
  method: Method;
  path: string;
  summary: string;
  tag: string;
  body?: z.ZodType;
  query?: z.ZodType;
  response?: z.ZodType;
  responseKind: ResponseKind;
  successStatus: number;
}

export class RouteRegistry {
  readonly routes: RouteInfo[] = [];

  add(info: RouteInfo): void {
    this.routes.push(info);
  }

  /** Methods registered for paths that match `path`; empty when no route has this path. */
  methodsFor(path: string): Method[] {
    return this.routes.filter((r) => pathPattern(r.path).test(path)).map((r) => r.method);
  }
}

export function pathPattern(expressPath: string): RegExp {
  const escaped = expressPath
    .split('/')
    .map((seg) => (seg.startsWith(':') ? '[^/]+' : seg.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
    .join('/');
  return new RegExp(`^${escaped}/?$`);
}

export interface HandlerContext<B, Q> {
  req: Request;
  res: Response;
  body: B;
  query: Q;
  params: Record<string, string>;
}

export interface RouteSpec<B extends z.ZodType | undefined, Q extends z.ZodType | undefined> {
  method: Method;
  path: string;
  summary: string;
  body?: B;
  /**
   * `error` text of the 400 answered when the body fails its schema; a function picks the text
   * by the failing issue when one route documents several (e.g. required fields vs bad types).
   */
  bodyError?: ErrorTextFor;
  query?: Q;
  queryError?: string;
  response?: z.ZodType;
  responseKind?: ResponseKind;
  successStatus?: number;
  /** Sends the no-store headers (raw secrets, downloads). */
  noStore?: boolean;
  /**
   * Returns the JSON answer. A handler that writes the response itself (text, files, streams)
   * returns undefined.
   */
  handler: (ctx: HandlerContext<Infer<B>, Infer<Q>>) => Promise<unknown> | unknown;
}

type Infer<T> = T extends z.ZodType ? z.output<T> : undefined;

export type ErrorTextFor = string | ((error: z.ZodError) => string);

export const NO_STORE_HEADERS = {
  'Cache-Control': 'no-store, no-cache, must-revalidate',
  Pragma: 'no-cache',
} as const;

/** Binds a router and the registry, so each area declares a route once. */
export function routeOn(router: Router, registry: RouteRegistry, tag: string) {
  return function route<B extends z.ZodType | undefined = undefined, Q extends z.ZodType | undefined = undefined>(
    spec: RouteSpec<B, Q>,
  ): void {
    registry.add({
      method: spec.method,
      path: spec.path,
      summary: spec.summary,
      tag,
      body: spec.body,
      query: spec.query,
      response: spec.response,
      responseKind: spec.responseKind ?? 'json',
      successStatus: spec.successStatus ?? 200,
    });
    router[spec.method](spec.path, async (req: Request, res: Response, next: (err?: unknown) => void) => {
      try {
        if (spec.noStore) res.set(NO_STORE_HEADERS);
        const body = spec.body ? parseWith(spec.body, req.body ?? {}, spec.bodyError ?? 'Invalid request body') : undefined;
        const query = spec.query ? parseWith(spec.query, req.query, spec.queryError ?? 'Invalid query parameters') : undefined;
        const result = await spec.handler({
          req,
          res,
          body: body as Infer<B>,
          query: query as Infer<Q>,
          params: req.params as Record<string, string>,
        });
        if (result !== undefined && !res.headersSent) res.status(spec.successStatus ?? 200).json(result);
      } catch (err) {
        next(err);
      }
    });
  };
}

/** Parses input with a schema; a failure is a 400 whose message names the offending field. */
export function parseWith<T extends z.ZodType>(schema: T, input: unknown, error: ErrorTextFor): z.output<T> {
  const result = schema.safeParse(input);
  if (result.success) return result.data;
  throw new ApiError(400, typeof error === 'string' ? error : error(result.error), describeIssue(result.error));
}

