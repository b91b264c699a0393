import type { NextFunction, Request, Response } from 'express';
import { BridgeError, type BridgeErrorCode } from '../services/bridge/errors.js';
import { E, type ErrorText } from './error-texts.js';
import { ApiError } from './errors.js';

/** Status, documented text and (when the service gives none) a hint, per bridge failure (decisions §6). */
const answers: Record<BridgeErrorCode, [number, ErrorText, string?]> = {
  'editor-db-not-found': [404, E.editorDbNotFound],
  'sqlite-unavailable': [503, E.sqliteUnavailable],
  'invalid-credentials': [400, E.invalidCredentials],
  'auto-detect-windows': [501, E.autoDetectWindows],
  disabled: [400, E.bridgeDisabled, 'Enable the bridge first (cursor.enabled: true)'],
  'credentials-missing': [401, E.bridgeCredentialsMissing, 'Import credentials with auto-detect or a manual import'],
  'credentials-expired': [401, E.bridgeCredentialsExpired, 'The editor token has expired; import it again'],
  'start-failed': [500, E.bridgeStartFailed],
  'stop-failed': [500, E.bridgeStopFailed],
};

/** The API answer for a bridge failure; the CLI prints the same text. */
export function bridgeErrorAnswer(err: BridgeError): { status: number; error: ErrorText; message?: string } {
  const [status, error, hint] = answers[err.code];
  const message = err.detail ?? hint;
  return message === undefined ? { status, error } : { status, error, message };
}

/** Error middleware of the bridge router: domain errors become their documented answers. */
export function mapBridgeErrors(err: unknown, _req: Request, _res: Response, next: NextFunction): void {
  if (err instanceof BridgeError) {
    const answer = bridgeErrorAnswer(err);
    return next(new ApiError(answer.status, answer.error, answer.message));
  }
  next(err);
}
