import fs from 'node:fs/promises';
import { systemClock } from '../../infra/clock.js';
import { createLogger, type LogLevel } from '../../infra/logger.js';
import { daemonFiles, parseDaemonArgs, parseDaemonSettings, readCredentialsFile } from './daemon-config.js';
import { createBridgeServer } from './server.js';

/**
 * The bridge daemon as its own process: `main.ts --config-dir <dir> --port <n>`, settings in
 * `$SWITCHBOARD_BRIDGE_OPTIONS`. Secrets are read from files under {config_dir}/cursor, never
 * passed on the command line or in the environment.
 */
async function run(): Promise<void> {
  // Output may go to a file or to a pipe whose reader (the app) is gone; never die of EPIPE.
  process.stdout.on('error', () => undefined);
  process.stderr.on('error', () => undefined);
  const logger = createLogger((process.env.SWITCHBOARD_LOG_LEVEL as LogLevel | undefined) ?? 'info');
  const args = parseDaemonArgs(process.argv.slice(2));
  const settings = parseDaemonSettings(process.env.SWITCHBOARD_BRIDGE_OPTIONS);
  const files = daemonFiles(args.configDir);
  const clientToken = (await fs.readFile(files.token, 'utf8')).trim();
  if (clientToken.length < 32) throw new Error(`${files.token} holds no usable token`);
  const server = createBridgeServer({
    upstream: { baseUrl: settings.upstreamUrl, ghostMode: settings.ghostMode, timeoutMs: settings.upstreamTimeoutMs },
    models: settings,
    clientToken,
    readCredentials: () => readCredentialsFile(files.credentials),
    clock: systemClock,
    logger,
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(args.port, '127.0.0.1', () => resolve());
  });
  logger.info(`bridge daemon listening on http://127.0.0.1:${args.port} (pid ${process.pid})`);
  const shutdown = (signal: string) => {
    logger.info(`bridge daemon: ${signal}, shutting down`);
    server.close(() => process.exit(0));
    server.closeAllConnections();
    setTimeout(() => process.exit(0), 2_000).unref();
  };
  process.once('SIGTERM', () => shutdown('SIGTERM'));
  process.once('SIGINT', () => shutdown('SIGINT'));
}

run().catch((err: unknown) => {
  const code = (err as NodeJS.ErrnoException).code;
  const message = code === 'EADDRINUSE' ? 'port already in use' : err instanceof Error ? err.message : String(err);
  process.stderr.write(`bridge daemon failed to start: ${message}\n`);
  process.exit(1);
});
