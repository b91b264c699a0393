import fs from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { appRoot } from '../infra/app-root.js';
import { systemClock, type Clock } from '../infra/clock.js';
import { createLogger, type Logger } from '../infra/logger.js';
import { createPaths, type Homes } from '../infra/paths.js';
import { AppConfigStore } from '../services/app-config/store.js';
import { AppEvents } from '../services/events.js';
import { createServices, startServices, stopServices, type Services } from '../services/index.js';
import { createApiServer } from './server.js';
import type { Express } from 'express';

export interface SwitchboardOptions {
  homes: Homes;
  /** 0 picks a free port. */
  port: number;
  clock?: Clock;
  logger?: Logger;
  env?: NodeJS.ProcessEnv;
  rendererDir?: string;
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
 */
export async function startSwitchboard(options: SwitchboardOptions): Promise<RunningSwitchboard> {
  const logger = options.logger ?? createLogger('info');
  const paths = createPaths(options.homes);
  await fs.mkdir(paths.configDir, { recursive: true, mode: 0o700 });
  const services = await createServices({
    paths,
    clock: options.clock ?? systemClock,
    logger,
    events: new AppEvents(),
    appConfig: new AppConfigStore(paths.appConfig),
    env: options.env ?? process.env,
  });
  const { app } = createApiServer({
    services,
    logger,
    rendererDir: options.rendererDir ?? path.join(appRoot(), 'dist', 'renderer'),
  });
  const server = http.createServer(app);
  server.keepAliveTimeout = 5_000;
  await listen(server, options.port);
  const port = (server.address() as AddressInfo).port;
  await startServices(services);
  let closing: Promise<void> | undefined;
  return {
    port,
    url: `http://127.0.0.1:${port}`,
    services,
    expressApp: app,
    close: () => (closing ??= shutdown(server, services)),
  };
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

async function shutdown(server: http.Server, services: Services): Promise<void> {
  const closed = new Promise<void>((resolve) => server.close(() => resolve()));
  server.closeIdleConnections();
  // Long-lived responses (event streams) would hold close() forever.
  const force = setTimeout(() => server.closeAllConnections(), 1_000);
  await stopServices(services);
  await closed;
  clearTimeout(force);
}
