export type ProvidersErrorKind = 'not-found' | 'key-required' | 'profile-exists' | 'upstream-exists' | 'needs-proxy' | 'invalid-target';

/** Domain errors of the providers area; main/api/providers.ts maps them to the documented answers. */
export class ProvidersError extends Error {
  constructor(
    readonly kind: ProvidersErrorKind,
    message: string,
  ) {
    super(message);
  }
}
