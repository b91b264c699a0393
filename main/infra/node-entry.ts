import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { appRoot } from './app-root.js';

export interface NodeCommand {
  command: string;
  args: string[];
  env: NodeJS.ProcessEnv;
}

/**
 * How to run one of our own Node entry points as a child process. `entry` is relative to the
 * project root without extension, e.g. `main/engines/proxy-engine/main`. Running from sources
 * (tests, `tsx`) uses the TypeScript file through tsx; running from the build uses dist/.
 * Under Electron the same binary runs as plain Node (ELECTRON_RUN_AS_NODE, see the fuses).
 * `SWITCHBOARD_CHILDREN_FROM_DIST=1` (set by `npm test`, which builds first) makes a source run
 * start its children from dist/ too: the same code compiled, without tsx compiling and resolving
 * every module of a child on each start, which takes seconds on a busy machine.
 */
export function nodeEntry(entry: string): NodeCommand {
  const env: NodeJS.ProcessEnv = {};
  if (process.versions.electron) env.ELECTRON_RUN_AS_NODE = '1';
  const built = path.join(appRoot(), 'dist', `${entry}.js`);
  if (runningFromSource() && !(process.env.SWITCHBOARD_CHILDREN_FROM_DIST === '1' && fs.existsSync(built))) {
    // tsx by absolute URL: a bare `--import tsx` resolves from the child's cwd, which may be
    // any directory (the proxy runs in {config_dir}/proxy).
    return { command: process.execPath, args: ['--import', import.meta.resolve('tsx'), path.join(appRoot(), `${entry}.ts`)], env };
  }
  return { command: process.execPath, args: [built], env };
}

function runningFromSource(): boolean {
  return fileURLToPath(import.meta.url).endsWith('.ts');
}
