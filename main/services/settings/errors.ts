/** Why a settings or preset operation failed; the API maps each kind to its documented answer. */
export type SettingsErrorKind =
  | 'invalid-profile'
  | 'invalid-settings'
  | 'not-found'
  | 'conflict'
  | 'read-failed'
  | 'write-failed'
  | 'preset-exists'
  | 'preset-not-found';

export class SettingsError extends Error {
  constructor(
    readonly kind: SettingsErrorKind,
    message: string,
    /** The file's mtime, for a conflict. */
    readonly currentMtime?: number,
  ) {
    super(message);
  }
}
