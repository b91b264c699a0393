import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Worker, type WorkerOptions } from 'node:worker_threads';
import { appRoot } from './app-root.js';

/**
 * Starts one of our own modules in a worker thread. `entry` is relative to the project root
 * without extension, e.g. `main/services/usage/scan-worker`. From the build it is the compiled
 * file; from sources (tests, `tsx`) a bootstrap registers tsx inside the worker first, because
 * loader flags in a worker's execArgv are not honoured.
 */
export function startWorker(entry: string, options: Pick<WorkerOptions, 'resourceLimits'> = {}): Worker {
  if (!runningFromSource()) return new Worker(path.join(appRoot(), 'dist', `${entry}.js`), options);
  const file = pathToFileURL(path.join(appRoot(), `${entry}.ts`)).href;
  // The ESM build of tsx's API: its CommonJS twin resolves its own loader to a wrong path.
  const tsx = pathToFileURL(createRequire(import.meta.url).resolve('tsx/esm/api').replace(/\.cjs$/, '.mjs')).href;
  const bootstrap = `import(${JSON.stringify(tsx)}).then((m) => { m.register(); return import(${JSON.stringify(file)}); });`;
  return new Worker(bootstrap, { ...options, eval: true });
}

function runningFromSource(): boolean {
  return fileURLToPath(import.meta.url).endsWith('.ts');
}
