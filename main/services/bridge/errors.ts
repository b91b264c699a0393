/**
 * What can go wrong in the bridge service. Services do not know HTTP, so each failure carries a
 * code; the API maps codes to status + the documented text (api/bridge-errors.ts) and the CLI
 * prints the same text.
 */
export type BridgeErrorCode =
  | 'editor-db-not-found'
  | 'sqlite-unavailable'
  | 'invalid-credentials'
  | 'auto-detect-windows'
  | 'disabled'
  | 'credentials-missing'
  | 'credentials-expired'
  | 'start-failed'
  | 'stop-failed';

export class BridgeError extends Error {
  constructor(
    readonly code: BridgeErrorCode,
    /** Extra detail (the cause of a failed start, the sqlite3 error, ...); never a secret. */
    readonly detail?: string,
  ) {
    super(detail ? `${code}: ${detail}` : code);
    this.name = 'BridgeError';
  }
}
