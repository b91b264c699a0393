import type { NextFunction, Request, Response } from 'express';
import { ProxyError, type ProxyErrorCode } from '../services/proxy/errors.js';
import { E, type ErrorText } from './error-texts.js';
import { ApiError } from './errors.js';

/**
 * Status and documented text per proxy failure (spec 7, decisions §4). `withMessage` false:
 * the documented answer is the bare text.
 */
const answers: Record<ProxyErrorCode, [number, ErrorText, boolean]> = {
  'start-failed': [500, E.proxyStartFailed, true],
  'start-cancelled': [409, E.proxyStartCancelled, true],
  'not-running': [503, E.proxyNotRunning, true],
  'config-not-found': [404, E.configNotFound, false],
  'missing-content': [400, E.missingContent, false],
  'invalid-yaml': [400, E.invalidYaml, true],
  conflict: [409, E.modifiedExternally, true],
  'write-failed': [500, E.writeConfigFailed, true],
  'invalid-log-name': [400, E.invalidLogName, false],
  'log-not-found': [404, E.logNotFound, false],
  'missing-name': [400, E.missingName, false],
  'invalid-filename': [400, E.invalidFilename, false],
  'auth-file-not-found': [404, E.authFileNotFound, false],
  'invalid-provider': [400, E.invalidProvider, true],
  'invalid-account': [400, E.invalidAccountId, false],
  'account-not-found': [404, E.accountNotFound, true],
  'quota-rate-limited': [429, E.tooManyQuotaRequests, true],
  'quota-failed': [502, E.quotaFetchFailed, true],
  'file-too-large': [413, E.fileTooLarge, true],
};

/** Error middleware of the proxy router: domain errors to documented answers, the rest passed on. */
export function mapProxyErrors(err: unknown, _req: Request, _res: Response, next: NextFunction): void {
  if (!(err instanceof ProxyError)) return next(err);
  const [status, error, withMessage] = answers[err.code];
  const extra = err.code === 'conflict' ? { currentMtime: err.currentMtime ?? null } : {};
  next(new ApiError(status, error, withMessage ? err.detail : undefined, extra));
}
