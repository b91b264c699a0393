#!/usr/bin/env node
// Runs the built CLI (dist/); `npm run build` makes it. From sources use `node --import tsx main/cli/main.ts`.
import { main } from '../dist/main/cli/index.js';
import { terminalText } from '../dist/main/infra/terminal-text.js';

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (err) => {
    process.stderr.write(terminalText(`switchboard: ${err instanceof Error ? err.stack : String(err)}\n`));
    process.exitCode = 1;
  },
);
