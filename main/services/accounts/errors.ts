/**
 * Why an accounts operation failed. The API maps codes to status + documented text
 * (api/accounts-errors.ts); `detail` is the message a user reads.
 */
export type AccountsErrorCode =
  | 'invalid-provider'
  | 'invalid-account'
  | 'account-not-found'
  | 'sign-in-unavailable'
  /** The provider's risk (acknowledgements.ts) was not accepted yet. */
  | 'acknowledgement-required'
  | 'invalid-method'
  /** Kiro's IAM Identity Center start URL or region is not usable. */
  | 'invalid-sign-in-options'
  /** The provider signs in through the managed CLIProxyAPI, which is not installed. */
  | 'binary-not-installed'
  /** gemini: no Code Assist project given (consumer sign-in is retired). */
  | 'project-id-required'
  | 'invalid-project-id'
  | 'sign-in-not-found'
  | 'sign-in-not-waiting'
  | 'invalid-callback'
  | 'callback-port-in-use'
  | 'too-many-sign-ins'
  | 'no-credentials'
  /** Another process holds the file's refresh lock. */
  | 'refresh-busy'
  /** The provider refused or could not be reached: a 502 naming it. */
  | 'provider-failed';

export class AccountsError extends Error {
  constructor(
    readonly code: AccountsErrorCode,
    message?: string,
    readonly extra: Record<string, unknown> = {},
  ) {
    super(message ?? code);
    this.detail = message;
    this.name = 'AccountsError';
  }
  readonly detail: string | undefined;
}

/**
 * A provider's answer that is a refusal, with the provider's own reason. `fatal` marks answers
 * that no retry can fix (a reused or revoked refresh token): the user must sign in again.
 */
export class ProviderRefusal extends Error {
  constructor(
    readonly provider: string,
    message: string,
    readonly status: number | null = null,
    readonly fatal = false,
  ) {
    super(message);
    this.name = 'ProviderRefusal';
  }
}
