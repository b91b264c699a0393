import fs from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import type { Express } from 'express';
import { appRoot } from '../infra/app-root.js';
import { appBuild } from '../infra/app-version.js';
import { systemClock, type Clock } from '../infra/clock.js';
import { acquireHomeLock, type HomeLock } from '../infra/home-lock.js';
import { createLogger, type Logger } from '../infra/logger.js';
import { createPaths, type Homes, type Paths } from '../infra/paths.js';
import type { Services } from '../services/index.js';
import { USAGE_CACHE_TAG } from '../services/usage/cache-version.js';
import { priceTableId } from '../services/usage/price-table.js';
import { answerParserErrors } from './client-errors.js';
import { HotAnswers } from './hot-answers.js';
import { WarmAnswers } from './warm-answers.js';

export interface SwitchboardOptions {
  homes: Homes;
  /** 0 picks a free port. */
  port: number;
  clock?: Clock;
  logger?: Logger;
  env?: NodeJS.ProcessEnv;
  rendererDir?: string;
  /** Called once the port accepts connections, before the services and routes are loaded. */
  onListening?: (url: string) => void;
  /**
   * With no usage disk cache, start the first scan of the logs while the rest loads instead of with
   * the first usage read (`serve` and the desktop app; API tests keep "nothing before a read").
   */
  scanUsageAtStart?: boolean;
  /** Keep the usage data current from directory watches instead of a walk per refresh (the long-running `serve` and app). */
  watchUsageLogs?: boolean;
}

export interface RunningSwitchboard {
  port: number;
  url: string;
  services: Services;
  /** The Express app, for tests that inspect what is mounted. */
  expressApp: Express;
  close(): Promise<void>;
}

/**
 * The whole main process minus Electron: services, API, dashboard. `switchboard serve`, the
 * desktop shell and the API tests all start the app through this function.
 *
 * The port listens first, with only node:http loaded; services, Express and zod load after it (a
 * third of a second on a slow machine) while requests wait for them, except the usage answers saved
 * with the usage cache at the last run (warm-answers.ts), which are served at once. Resolves when
 * everything runs.
 */
export async function startSwitchboard(options: SwitchboardOptions): Promise<RunningSwitchboard> {
  const logger = options.logger ?? createLogger('info');
  const clock = options.clock ?? systemClock;
  const paths = createPaths(options.homes);
  await fs.mkdir(paths.configDir, { recursive: true, mode: 0o700 });
  // One process owns a home: a second one would lose updates and stop the first one's children.
  const lock = await acquireHomeLock(paths.configDir);
  try {
    return await startLocked(options, { logger, clock, paths, lock });
  } catch (err) {
    await lock.release();
    throw err;
  }
}

async function startLocked(
  options: SwitchboardOptions,
  o: { logger: Logger; clock: Clock; paths: Paths; lock: HomeLock },
): Promise<RunningSwitchboard> {
  const { logger, clock, paths, lock } = o;
  const hot = new HotAnswers(clock);
  const warm = new WarmAnswers(paths.usageAnswers, paths.usageCache, `${appBuild()} ${priceTableId()} ${USAGE_CACHE_TAG}`, logger, paths.appConfig);
  const warmed = await warm.load(hot, clock.now());
  let app: Express | null = null;
  const waiting: Array<[http.IncomingMessage, http.ServerResponse]> = [];
  const server = http.createServer((req, res) => {
    if (hot.serve(req, res)) return;
    if (app) app(req, res);
    else waiting.push([req, res]);
  });
  server.keepAliveTimeout = 5_000;
  answerParserErrors(server);
  await listen(server, options.port);
  const port = (server.address() as AddressInfo).port;
  const url = `http://127.0.0.1:${port}`;
  let loaded: Awaited<ReturnType<typeof load>>;
  try {
    await lock.setUrl(url);
    options.onListening?.(url);
    loaded = await load({ ...options, logger, clock, paths, hot });
  } catch (err) {
    server.closeAllConnections();
    server.close();
    throw err;
  }
  const { services, stopServices } = loaded;
  app = loaded.app;
  hot.attach(services.usage);
  const starting = loaded.startServices(services);
  for (const [req, res] of waiting.splice(0)) app(req, res);
  await starting;
  // Saved answers were served as the stale-while-revalidate answer: start that refresh now.
  if (warmed > 0) services.usage.revalidate();
  warm.start(hot, services.usage);
  let closing: Promise<void> | undefined;
  const stop = async () => {
    services.ctx.events.emit('closing', {});
    await warm.stop(hot, services.usage);
    await stopServices(services);
  };
  return {
    port,
    url,
    services,
    expressApp: app,
    close: () => (closing ??= shutdown(server, stop).finally(() => lock.release())),
  };
}

/**
 * Everything behind the port, imported only now so that listening does not wait for it. The usage
 * service comes first and starts at once: on a first run (no disk cache), with `scanUsageAtStart`,
 * its scan of the logs overlaps the loading of everything else, so the first figures come sooner.
 */
async function load(o: SwitchboardOptions & { logger: Logger; clock: Clock; paths: Paths; hot: HotAnswers }) {
  const [{ AppConfigStore }, { AppEvents }, { UsageService }] = await Promise.all([
    import('../services/app-config/store.js'),
    import('../services/events.js'),
    import('../services/usage/usage-service.js'),
  ]);
  const ctx = {
    paths: o.paths,
    clock: o.clock,
    logger: o.logger,
    events: new AppEvents(),
    appConfig: new AppConfigStore(o.paths.appConfig),
    env: o.env ?? process.env,
  };
  const usage = new UsageService(ctx);
  usage.start({ scanWithoutCache: o.scanUsageAtStart === true, watch: o.watchUsageLogs === true });
  let services: Services;
  let rest: [typeof import('../services/index.js'), typeof import('./server.js')];
  try {
    rest = await Promise.all([import('../services/index.js'), import('./server.js')]);
    services = await rest[0].createServices(ctx, { usage });
  } catch (err) {
    await usage.stop(); // its scan and worker threads must not outlive a failed start
    throw err;
  }
  const [{ startServices, stopServices }, { createApiServer }] = rest;
  const { app } = createApiServer({
    services,
    logger: o.logger,
    rendererDir: o.rendererDir ?? path.join(appRoot(), 'dist', 'renderer'),
    hot: o.hot,
  });
  return { services, app, startServices, stopServices };
}

function listen(server: http.Server, port: number): Promise<void> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
}

async function shutdown(server: http.Server, stopServices: () => Promise<void>): Promise<void> {
  const closed = new Promise<void>((resolve) => server.close(() => resolve()));
  server.closeIdleConnections();
  // Event streams end on the `closing` event; anything else still open after a second is cut.
  const force = setTimeout(() => server.closeAllConnections(), 1_000);
  await stopServices();
  await closed;
  clearTimeout(force);
}
