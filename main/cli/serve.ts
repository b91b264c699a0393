import { startSwitchboard, type RunningSwitchboard } from '../api/runtime.js';
import { HomeLockedError } from '../infra/home-lock.js';
import { installLastResortGuard } from '../infra/last-resort.js';
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
  // Handlers first: the port accepts connections before the services are up, and a SIGTERM in
  // that window must still stop children and release the home lock, not kill the process bare.
  const signals = installStopSignals();
  let app: RunningSwitchboard;
  try {
    app = await startSwitchboard({ homes: resolveHomes(env), port, logger, env, scanUsageAtStart: true, watchUsageLogs: true });
  } catch (err) {
    const line = startFailureLine(err, port);
    if (!line) throw err;
    process.stderr.write(`${line}\n`);
    return 1;
  }
  // From here a request that throws outside its handler is logged, never the end of the process.
  installLastResortGuard(logger);
  process.stdout.write(`Switchboard listening on ${app.url}\n`);
  const signal = await signals.received;
  logger.info(`${signal} received, shutting down`);
  const timer = setTimeout(() => {
    logger.error('shutdown took longer than 5 s; exiting');
    process.exit(1);
  }, 4_500);
  timer.unref();
  await app.close();
  // Nothing we own is left running; do not wait on stray handles of libraries.
  process.exit(0);
}

/** Listens for SIGINT/SIGTERM from now on; `received` resolves with the first one. */
function installStopSignals(): { received: Promise<string> } {
  const received = new Promise<string>((resolve) => {
    for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => resolve(signal));
  });
  return { received };
}

/** The one line `serve` prints for a start-up failure a user can fix, or null for a real fault (stack). */
export function startFailureLine(err: unknown, port: number): string | null {
  if (err instanceof HomeLockedError) {
    return `switchboard: ${err.message} (open it there, or set SWITCHBOARD_HOME to use another home)`;
  }
  if ((err as { code?: unknown } | null)?.code === 'EADDRINUSE') {
    return `switchboard: port ${port} is in use (is Switchboard already running? open http://127.0.0.1:${port}/, or pass --port / SWITCHBOARD_PORT)`;
  }
  return null;
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
