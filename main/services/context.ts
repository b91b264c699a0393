import type { Clock } from '../infra/clock.js';
import type { Logger } from '../infra/logger.js';
import type { Paths } from '../infra/paths.js';
import type { AppConfigStore } from './app-config/store.js';
import type { AppEvents } from './events.js';

/** What every service is built from; tests build one with a temp home and a manual clock. */
export interface ServiceContext {
  paths: Paths;
  clock: Clock;
  logger: Logger;
  events: AppEvents;
  appConfig: AppConfigStore;
  env: NodeJS.ProcessEnv;
}
