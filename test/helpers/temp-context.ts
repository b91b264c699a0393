import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { ManualClock } from '../../main/infra/clock.js';
import type { Logger } from '../../main/infra/logger.js';
import { createPaths } from '../../main/infra/paths.js';
import { AppConfigStore } from '../../main/services/app-config/store.js';
import type { ServiceContext } from '../../main/services/context.js';
import { AppEvents } from '../../main/services/events.js';

export interface TempContext {
  ctx: ServiceContext;
  home: string;
  clock: ManualClock;
  /** Lines the services logged, `level message`. */
  logs: string[];
  cleanup(): Promise<void>;
}

/**
 * A ServiceContext on a fresh temp {config_dir} for service-level tests (no app, no HTTP). Unlike
 * startTestApp it writes no config.yaml: tests of first-start behaviour need the bare directory.
 */
export async function tempContext(): Promise<TempContext> {
  const root = await fs.mkdtemp(path.join(os.tmpdir(), 'switchboard-svc-'));
  const home = path.join(root, 'home');
  await fs.mkdir(home, { mode: 0o700 });
  const paths = createPaths({ configDir: home, agentDir: path.join(root, 'agent') });
  const clock = new ManualClock(Date.UTC(2026, 0, 2, 3, 4, 5, 6));
  const logs: string[] = [];
  const logger: Logger = {
    debug: (m) => logs.push(`debug ${m}`),
    info: (m) => logs.push(`info ${m}`),
    warn: (m) => logs.push(`warn ${m}`),
    error: (m) => logs.push(`error ${m}`),
  };
  const ctx: ServiceContext = { paths, clock, logger, events: new AppEvents(), appConfig: new AppConfigStore(paths.appConfig), env: {} };
  return { ctx, home, clock, logs, cleanup: () => fs.rm(root, { recursive: true, force: true }) };
}
