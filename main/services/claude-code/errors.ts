/** Why a change to Claude Code's own settings.json failed; the API maps each kind to its answer. */
export type ClaudeCodeErrorKind =
  | 'invalid-json'
  /** Not a regular file, or bytes Switchboard could not write back as they are (not UTF-8). */
  | 'unreadable'
  | 'too-large'
  /** Its owner took the write permission away (0444): not replaced. */
  | 'read-only'
  /** Saved by someone else on every one of many attempts: nothing replaced, nothing lost. */
  | 'busy'
  | 'nothing-to-undo'
  | 'nothing-to-restore'
  | 'write-failed';

export class ClaudeCodeError extends Error {
  constructor(
    readonly kind: ClaudeCodeErrorKind,
    message: string,
  ) {
    super(message);
  }
}
