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
 */
export function nodeEntry(entry: string): NodeCommand {
  const env: NodeJS.ProcessEnv = {};
  if (process.versions.electron) env.ELECTRON_RUN_AS_NODE = '1';
  if (runningFromSource()) {
    // tsx by absolute URL: a bare `--import tsx` resolves from the child's cwd, which may be
    // any directory (the proxy runs in {config_dir}/proxy).
    return { command: process.execPath, args: ['--import', import.meta.resolve('tsx'), path.join(appRoot(), `${entry}.ts`)], env };
  }
  return { command: process.execPath, args: [path.join(appRoot(), 'dist', `${entry}.js`)], env };
}

function runningFromSource(): boolean {
  return fileURLToPath(import.meta.url).endsWith('.ts');
}
