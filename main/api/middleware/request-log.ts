import type { NextFunction, Request, Response } from 'express';
import type { Logger } from '../../infra/logger.js';

/** Logs method, path without query, status and duration: never headers, queries or bodies. */
export function requestLog(logger: Logger) {
  return (req: Request, res: Response, next: NextFunction): void => {
    const started = process.hrtime.bigint();
    const path = req.path;
    res.on('finish', () => {
      const ms = Number(process.hrtime.bigint() - started) / 1e6;
      logger.debug(`${req.method} ${path} ${res.statusCode} ${ms.toFixed(1)}ms`);
    });
    next();
  };
}
