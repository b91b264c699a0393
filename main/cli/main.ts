import { main } from './index.js';
import { terminalText } from '../infra/terminal-text.js';

// Entry used when running from sources (tests spawn this through tsx).
main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (err: unknown) => {
    process.stderr.write(terminalText(`switchboard: ${err instanceof Error ? err.stack : String(err)}\n`));
    process.exitCode = 1;
  },
);
