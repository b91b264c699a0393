import { startSwitchboard } from '../api/runtime.js';
import { createLogger, type LogLevel } from '../infra/logger.js';
import { resolveHomes } from '../infra/paths.js';
import { CliError, parsePort } from './args.js';

export const SERVE_USAGE = `Usage: switchboard serve [--port N]

Runs the management API and the dashboard headless on http://127.0.0.1:<port> until SIGINT or
SIGTERM. The port is --port, else $SWITCHBOARD_PORT, else 3000; 0 picks a free one.
`;

/** `switchboard serve [--port N]`: the whole main process, headless. */
export async function runServe(argv: string[], env: NodeJS.ProcessEnv = process.env): Promise<number> {
  const port = resolvePort(argv, env);
  const logger = createLogger((env.SWITCHBOARD_LOG_LEVEL as LogLevel | undefined) ?? 'info');
  const app = await startSwitchboard({ homes: resolveHomes(env), port, logger, env });
  process.stdout.write(`Switchboard listening on ${app.url}\n`);
  await new Promise<void>((resolve) => {
    const stop = (signal: string) => {
      logger.info(`${signal} received, shutting down`);
      const timer = setTimeout(() => {
        logger.error('shutdown took longer than 5 s; exiting');
        process.exit(1);
      }, 4_500);
      timer.unref();
      void app.close().then(() => {
        resolve();
        // Nothing we own is left running; do not wait on stray handles of libraries.
        process.exit(0);
      });
    };
    process.once('SIGINT', () => stop('SIGINT'));
    process.once('SIGTERM', () => stop('SIGTERM'));
  });
  return 0;
}

function resolvePort(argv: string[], env: NodeJS.ProcessEnv): number {
  const i = argv.indexOf('--port');
  if (i >= 0) {
    const value = argv[i + 1];
    if (value === undefined) throw new CliError('--port needs a value');
    return parsePort(value);
  }
  const inline = argv.find((a) => a.startsWith('--port='));
  if (inline) return parsePort(inline.slice('--port='.length));
  if (env.SWITCHBOARD_PORT) return parsePort(env.SWITCHBOARD_PORT);
  return 3000;
}
