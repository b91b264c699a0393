import type { NextFunction, Request, Response } from 'express';
import { AccountsError, type AccountsErrorCode } from '../services/accounts/errors.js';
import { E, type ErrorText } from './error-texts.js';
import { ApiError } from './errors.js';

/** Status and documented text per accounts failure (decisions §4.1); `false`: the bare text. */
const answers: Record<AccountsErrorCode, [number, ErrorText, boolean]> = {
  'invalid-provider': [400, E.invalidProvider, true],
  'invalid-account': [400, E.invalidAccountId, false],
  'account-not-found': [404, E.accountNotFound, true],
  'sign-in-unavailable': [400, E.signInUnavailable, true],
  'acknowledgement-required': [400, E.acknowledgementRequired, true],
  'invalid-method': [400, E.invalidSignInMethod, true],
  'invalid-sign-in-options': [400, E.invalidSignInOptions, true],
  'binary-not-installed': [409, E.cliproxyNotInstalled, true],
  'project-id-required': [400, E.projectIdRequired, true],
  'invalid-project-id': [400, E.invalidProjectId, true],
  'sign-in-not-found': [404, E.signInNotFound, true],
  'sign-in-not-waiting': [409, E.signInNotWaiting, true],
  'invalid-callback': [400, E.invalidCallback, true],
  'callback-port-in-use': [409, E.callbackPortInUse, true],
  'too-many-sign-ins': [429, E.tooManySignIns, true],
  'no-credentials': [404, E.noCredentials, true],
  'refresh-busy': [409, E.refreshBusy, true],
  'provider-failed': [502, E.providerFailed, true],
};

export function mapAccountsErrors(err: unknown, _req: Request, _res: Response, next: NextFunction): void {
  if (!(err instanceof AccountsError)) return next(err);
  const [status, error, withMessage] = answers[err.code];
  next(new ApiError(status, error, withMessage ? err.detail : undefined, err.extra));
}
