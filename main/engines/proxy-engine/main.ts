import path from 'node:path';
import { appVersion } from '../../infra/app-version.js';
import { createLogger, type LogLevel } from '../../infra/logger.js';
import { ORIGIN_OVERRIDES_ENV, parseOriginOverrides } from '../../infra/origin-overrides.js';
import { loadProxyConfig, ProxyConfigError } from './config.js';
import type { EngineContext } from './context.js';
import { createEngineServer } from './server.js';
import { SessionTracker } from './sessions.js';
import { trafficState } from './traffic/state.js';

/**
 * The built-in proxy engine as its own process:
 *   node main.js --config <proxy/config.yaml>
 * with WRITABLE_PATH naming the directory whose `logs/` receives error logs (CLIProxyAPI's
 * convention). Exits 2 on a bad config, 1 when the address cannot be bound (port in use).
 */
const PREFIX = 'switchboard proxy engine';

async function main(): Promise<void> {
  // A supervisor that went away closes our pipes; writing to them must not kill us.
  process.stdout.on('error', () => undefined);
  process.stderr.on('error', () => undefined);
  const configPath = path.resolve(argValue('--config') ?? 'config.yaml');
  let config;
  try {
    config = await loadProxyConfig(configPath);
  } catch (err) {
    fail(2, err instanceof ProxyConfigError ? `invalid config: ${err.message}` : String(err));
  }
  const baseDir = process.env.WRITABLE_PATH ? path.resolve(process.env.WRITABLE_PATH) : path.dirname(configPath);
  const ctx: EngineContext = {
    config,
    configPath,
    logsDir: path.join(baseDir, 'logs'),
    authDir: path.join(path.dirname(configPath), 'auth'),
    sessions: new SessionTracker(),
    errorLogKeep: positiveInt(process.env.SWITCHBOARD_ERROR_LOG_KEEP),
    logger: createLogger((process.env.SWITCHBOARD_ENGINE_LOG_LEVEL as LogLevel | undefined) ?? 'info'),
    version: appVersion(),
    startedAt: Date.now(),
    now: () => Date.now(),
    originOverrides: parseOriginOverrides(process.env[ORIGIN_OVERRIDES_ENV]),
  };
  const server = createEngineServer(ctx);
  const { host, port } = config.server;
  server.once('error', (err: NodeJS.ErrnoException) => {
    if (err.code === 'EADDRINUSE') fail(1, `port ${port} on ${host} is already in use by another process (EADDRINUSE)`);
    fail(1, `cannot listen on ${host}:${port}: ${err.message}`);
  });
  server.listen(port, host, () => {
    ctx.startedAt = Date.now();
    process.stdout.write(`${PREFIX} ${ctx.version} listening on http://${host}:${port}\n`);
  });
  const shutdown = (signal: string) => {
    process.stdout.write(`${PREFIX}: ${signal}, shutting down\n`);
    // In-flight streams get a moment to finish; the supervisor SIGKILLs after its grace anyway.
    setTimeout(() => process.exit(0), 3_000).unref();
    const requestLog = trafficState(ctx).requestLog;
    requestLog.close();
    // The last request-log lines reach the disk before the process goes.
    const { errorLogs } = trafficState(ctx);
    server.close(() => void Promise.all([requestLog.closeFileWhenDrained(), errorLogs.idle()]).then(() => process.exit(0)));
    server.closeIdleConnections();
  };
  process.once('SIGTERM', () => shutdown('SIGTERM'));
  process.once('SIGINT', () => shutdown('SIGINT'));
}

function argValue(name: string): string | undefined {
  const args = process.argv.slice(2);
  const i = args.indexOf(name);
  if (i >= 0) return args[i + 1];
  return args.find((a) => a.startsWith(`${name}=`))?.slice(name.length + 1);
}

function positiveInt(text: string | undefined): number | undefined {
  const n = Number(text);
  return Number.isSafeInteger(n) && n > 0 ? n : undefined;
}

function fail(code: number, message: string): never {
  process.stderr.write(`${PREFIX}: ${message}\n`);
  process.exit(code);
}

void main();
