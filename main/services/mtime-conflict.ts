/**
 * A write carried an `expectedMtime` that no longer matches the file (decisions §1); the API
 * answers 409 "File modified externally" with `currentMtime` (null when the file is gone).
 */
export class MtimeConflictError extends Error {
  constructor(readonly currentMtime: number | null) {
    super('File modified externally');
  }
}

/** `expectedMtime` absent = no check; null = the client saw no file. */
export function checkMtime(expected: number | null | undefined, current: number | null): void {
  if (expected !== undefined && expected !== current) throw new MtimeConflictError(current);
}
