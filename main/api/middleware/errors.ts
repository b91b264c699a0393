import type { NextFunction, Request, Response } from 'express';
import { ApiError } from '../errors.js';
import { E } from '../error-texts.js';
import type { RouteRegistry } from '../route.js';
import type { Logger } from '../../infra/logger.js';
import { JsonTooDeepError } from '../../infra/json-depth.js';
import { ConfigFileError } from '../../services/app-config/store.js';

/** Unknown /api paths: 405 when the path exists with other methods, else 404. */
export function notFound(registry: RouteRegistry) {
  return (req: Request, res: Response, next: NextFunction): void => {
    const methods = registry.methodsFor(req.baseUrl + req.path);
    if (methods.length > 0) {
      res.set('Allow', [...new Set(methods)].map((m) => m.toUpperCase()).join(', '));
      next(new ApiError(405, E.methodNotAllowed));
      return;
    }
    next(new ApiError(404, E.notFound));
  };
}

interface BodyParserError {
  type?: string;
  status?: number;
}

/** The single place errors become responses: `{error, message?}`, never a stack or HTML. */
export function errorHandler(logger: Logger) {
  return (err: unknown, req: Request, res: Response, _next: NextFunction): void => {
    const apiError = toApiError(err);
    if (apiError.status >= 500) logger.error(`${req.method} ${req.path} failed: ${stackOf(err)}`);
    if (res.headersSent) {
      res.destroy();
      return;
    }
    res.status(apiError.status).json(apiError.toBody());
  };
}

function toApiError(err: unknown): ApiError {
  if (err instanceof ApiError) return err;
  if (err instanceof ConfigFileError) return new ApiError(500, E.invalidConfigFile, err.message);
  const parserError = err as BodyParserError;
  if (parserError?.type === 'entity.too.large') return new ApiError(413, E.bodyTooLarge);
  if (parserError?.type === 'entity.parse.failed') return new ApiError(400, E.invalidJson);
  if (err instanceof JsonTooDeepError) return new ApiError(400, E.invalidJson, err.message);
  if (parserError?.type === 'encoding.unsupported' || parserError?.type === 'charset.unsupported') {
    return new ApiError(415, 'Unsupported content encoding');
  }
  if (typeof parserError?.status === 'number' && parserError.status >= 400 && parserError.status < 500) {
    return new ApiError(parserError.status, E.badRequest);
  }
  return new ApiError(500, E.internal);
}

function stackOf(err: unknown): string {
  return err instanceof Error ? (err.stack ?? err.message) : String(err);
}
