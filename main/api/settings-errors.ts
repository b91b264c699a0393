import type { NextFunction, Request, Response } from 'express';
import { SettingsError, type SettingsErrorKind } from '../services/settings/errors.js';
import { TokensError, type TokensErrorKind } from '../services/tokens/errors.js';
import { E, type ErrorText } from './error-texts.js';
import { ApiError } from './errors.js';

const settingsAnswers: Record<SettingsErrorKind, [number, ErrorText]> = {
  'invalid-profile': [400, E.invalidProfile],
  'invalid-settings': [400, E.settingsRequired],
  'not-found': [404, E.settingsNotFound],
  conflict: [409, E.modifiedExternally],
  'read-failed': [500, E.readSettingsFailed],
  'write-failed': [500, E.writeSettingsFailed],
  'preset-exists': [409, E.presetExists],
  'preset-not-found': [404, E.presetNotFound],
};

const tokensAnswers: Record<TokensErrorKind, [number, ErrorText]> = {
  required: [400, E.tokensRequired],
  'invalid-value': [400, E.invalidToken],
  'write-failed': [500, E.writeConfigFailed],
};

/**
 * Error middleware for the settings, preset and token routers: turns the services' domain
 * errors into the documented answers and passes anything else on untouched.
 */
export function mapSettingsErrors(err: unknown, _req: Request, _res: Response, next: NextFunction): void {
  if (err instanceof SettingsError) {
    const [status, error] = settingsAnswers[err.kind];
    // The invalid-profile answer is the bare documented text; the others say what happened.
    const message = err.kind === 'invalid-profile' ? undefined : err.message;
    const extra = err.kind === 'conflict' ? { currentMtime: err.currentMtime } : {};
    return next(new ApiError(status, error, message, extra));
  }
  if (err instanceof TokensError) {
    const [status, error] = tokensAnswers[err.kind];
    return next(new ApiError(status, error, err.message));
  }
  next(err);
}
