import type { NextFunction, Request, Response } from 'express';
import { InvalidSettingsJsonError, SettingsWriteError } from '../services/agent-tool/settings-file.js';
import { InvalidConfigError } from '../services/app-config/service.js';
import { MtimeConflictError } from '../services/mtime-conflict.js';
import { SharedError, type SharedErrorKind } from '../services/shared/content.js';
import { E, type ErrorText } from './error-texts.js';
import { ApiError } from './errors.js';

const sharedAnswers: Record<SharedErrorKind, [number, ErrorText]> = {
  'invalid-type': [400, E.invalidType],
  'invalid-path': [400, E.invalidPath],
  'not-found': [404, E.sharedNotFound],
  'too-large': [413, E.sharedTooLarge],
};

/**
 * Error middleware for the shared, agent-tool and config routers: the services' domain errors
 * become the documented answers (decisions §3); anything else passes on untouched.
 */
export function mapConfigAreaErrors(err: unknown, _req: Request, _res: Response, next: NextFunction): void {
  if (err instanceof SharedError) {
    const [status, error] = sharedAnswers[err.kind];
    return next(new ApiError(status, error, err.message));
  }
  if (err instanceof MtimeConflictError) {
    return next(new ApiError(409, E.modifiedExternally, undefined, { currentMtime: err.currentMtime }));
  }
  if (err instanceof InvalidSettingsJsonError) {
    return next(new ApiError(400, `${E.invalidSettingsJson}: ${err.message}`, err.message));
  }
  if (err instanceof SettingsWriteError) return next(new ApiError(500, E.writeSettingsFailed, err.message));
  if (err instanceof InvalidConfigError) return next(new ApiError(400, E.invalidConfig, err.message));
  next(err);
}
