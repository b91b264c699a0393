/**
 * Why a proxy-area operation failed. Services do not know HTTP: each failure carries a code and
 * a message for users; the API maps codes to status + documented text (api/proxy-errors.ts).
 */
export type ProxyErrorCode =
  | 'start-failed'
  | 'start-cancelled'
  | 'not-running'
  | 'config-not-found'
  | 'missing-content'
  | 'invalid-yaml'
  | 'conflict'
  | 'write-failed'
  | 'invalid-log-name'
  | 'log-not-found'
  | 'missing-name'
  | 'invalid-filename'
  | 'auth-file-not-found'
  | 'invalid-provider'
  | 'invalid-account'
  | 'account-not-found'
  | 'quota-rate-limited'
  | 'quota-failed'
  /** An error log or auth file over its read limit (infra/bounded-read.ts). */
  | 'file-too-large';

export class ProxyError extends Error {
  constructor(
    readonly code: ProxyErrorCode,
    message?: string,
    /** The file's mtime, for a conflict. */
    readonly currentMtime?: number,
  ) {
    super(message ?? code);
    this.detail = message;
    this.name = 'ProxyError';
  }
  /** The user-facing detail, when there is one beyond the code's documented text. */
  readonly detail: string | undefined;
}
