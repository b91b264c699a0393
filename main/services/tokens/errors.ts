/** Why a token or account change failed; the API maps each kind to its documented answer. */
export type TokensErrorKind = 'required' | 'invalid-value' | 'write-failed';

export class TokensError extends Error {
  constructor(
    readonly kind: TokensErrorKind,
    message: string,
  ) {
    super(message);
  }
}
