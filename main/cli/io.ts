import { terminalText } from '../infra/terminal-text.js';

/** Where a command writes; tests pass their own to capture the output. */
export interface CliIo {
  out: (text: string) => void;
  err: (text: string) => void;
}

export const processIo: CliIo = {
  out: (text) => process.stdout.write(text),
  err: (text) => process.stderr.write(text),
};

/**
 * Every write of a command through terminalText (infra/terminal-text.ts), whatever `io` the
 * caller passed (tests pass theirs): text from outside never reaches the terminal raw.
 */
export function terminalIo(io: CliIo): CliIo {
  return { out: (text) => io.out(terminalText(text)), err: (text) => io.err(terminalText(text)) };
}
