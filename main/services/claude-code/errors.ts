/** Why a change to Claude Code's own settings.json failed; the API maps each kind to its answer. */
export type ClaudeCodeErrorKind = 'invalid-json' | 'nothing-to-undo' | 'write-failed';

export class ClaudeCodeError extends Error {
  constructor(
    readonly kind: ClaudeCodeErrorKind,
    message: string,
  ) {
    super(message);
  }
}
