import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { startSwitchboard, type RunningSwitchboard } from '../../main/api/runtime.js';
import type { Clock } from '../../main/infra/clock.js';
import { silentLogger } from '../../main/infra/logger.js';
import { writeOfflineConfig } from './offline-config.js';

export interface TestApp extends RunningSwitchboard {
  home: string;
  agentDir: string;
  /** fetch relative to the app, JSON body encoded when given as an object. */
  request(method: string, urlPath: string, body?: unknown, headers?: Record<string, string>): Promise<Response>;
  json<T = any>(method: string, urlPath: string, body?: unknown): Promise<{ status: number; body: T }>;
  stop(): Promise<void>;
}

export interface TestAppOptions {
  clock?: Clock;
  env?: NodeJS.ProcessEnv;
  /** Prepares files in the temp home before the app starts. */
  before?: (dirs: { home: string; agentDir: string }) => Promise<void>;
  /** As `serve` starts the app: with no usage disk cache, the first scan starts at once. */
  scanUsageAtStart?: boolean;
}

/** Starts the real app on port 0 with a fresh temporary home and agent dir. */
export async function startTestApp(options: TestAppOptions = {}): Promise<TestApp> {
  const root = await fs.mkdtemp(path.join(os.tmpdir(), 'switchboard-test-'));
  const home = path.join(root, 'home');
  const agentDir = path.join(root, 'agent');
  await fs.mkdir(agentDir, { recursive: true });
  await options.before?.({ home, agentDir });
  await writeOfflineConfig(home);
  const app = await startSwitchboard({
    homes: { configDir: home, agentDir },
    port: 0,
    clock: options.clock,
    logger: silentLogger,
    ...(options.scanUsageAtStart ? { scanUsageAtStart: true } : {}),
    // HOME is the temp home too, so `~` paths (agent-tool settings, editor DB) never reach the real one.
    env: { ...process.env, HOME: home, USERPROFILE: home, ...options.env, SWITCHBOARD_HOME: home, SWITCHBOARD_AGENT_DIR: agentDir },
  });
  const request = (method: string, urlPath: string, body?: unknown, headers: Record<string, string> = {}) =>
    fetch(app.url + urlPath, {
      method,
      headers: body === undefined ? headers : { 'content-type': 'application/json', ...headers },
      body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
    });
  return {
    ...app,
    home,
    agentDir,
    request,
    async json(method, urlPath, body) {
      const res = await request(method, urlPath, body);
      const text = await res.text();
      return { status: res.status, body: text ? JSON.parse(text) : undefined };
    },
    async stop() {
      await app.close();
      await fs.rm(root, { recursive: true, force: true });
    },
  };
}
