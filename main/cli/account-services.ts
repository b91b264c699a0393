import { systemClock } from '../infra/clock.js';
import { createLogger, type LogLevel } from '../infra/logger.js';
import { createPaths, resolveHomes } from '../infra/paths.js';
import { AppConfigStore } from '../services/app-config/store.js';
import type { ServiceContext } from '../services/context.js';
import { AppEvents } from '../services/events.js';
import { createServices, type Services } from '../services/index.js';

/**
 * The app's own services on {config_dir}, for `login` and `accounts`: the terminal signs in the
 * same way the API does (same files, same first-sign-in profile), without a running app.
 */
export async function accountServices(env: NodeJS.ProcessEnv): Promise<{ ctx: ServiceContext; services: Services }> {
  const paths = createPaths(resolveHomes(env));
  const logger = createLogger((env.SWITCHBOARD_LOG_LEVEL as LogLevel | undefined) ?? 'warn');
  const ctx: ServiceContext = { paths, clock: systemClock, logger, events: new AppEvents(), appConfig: new AppConfigStore(paths.appConfig), env };
  return { ctx, services: await createServices(ctx) };
}
