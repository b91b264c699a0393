import { execFile } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../../../main/infra/clock.js';
import { silentLogger } from '../../../../main/infra/logger.js';
import { createPaths } from '../../../../main/infra/paths.js';
import { AppConfigStore } from '../../../../main/services/app-config/store.js';
import { AppEvents } from '../../../../main/services/events.js';
import { ScanPool } from '../../../../main/services/usage/scan-pool.js';
import { UsageService } from '../../../../main/services/usage/usage-service.js';

/**
 * The oracle: on a generated corpus, daily tokens equal `ccusage claude daily --offline --json`
 * to the token, and Claude costs to 1e-9 relative, in UTC and in a zone that moves requests
 * across midnight. The corpus comes from the project's own generator (`scripts/gen-usage.mjs`); it
 * starts before 2026-01-07 and ends after it, so both Claude Code 2.0 inline sidechains and 2.1
 * subagent files with their `progress` mirrors are in it. Half the proxied models' replies are
 * written without `requestId` (`--noreq-rate 0.5`), split lines at distinct instants, which
 * `ccusage claude daily` keys by session + message id + timestamp.
 */
const root = path.resolve(__dirname, '../../../..');
const generator = path.join(root, 'scripts/gen-usage.mjs');
const ccusage = path.join(root, 'node_modules/.bin/ccusage');
const run = promisify(execFile);

interface CcusageDay {
  date: string;
  inputTokens: number;
  outputTokens: number;
  cacheCreationTokens: number;
  cacheReadTokens: number;
  totalCost: number;
  modelBreakdowns: Array<{ modelName: string; cost: number }>;
}

let dir: string;
let corpus: string;
let service: UsageService;

beforeAll(async () => {
  dir = await fs.mkdtemp(path.join(os.tmpdir(), 'switchboard-oracle-'));
  corpus = path.join(dir, 'data');
  await run(process.execPath, [generator, '--out', corpus, '--bytes', '3MB', '--seed', '11', '--start', '2025-12-28', '--days', '20', '--sessions', '5', '--noreq-rate', '0.5', '--quiet']);
  service = await serviceOn(null, 'home');
}, 60_000);

afterAll(async () => {
  await service?.stop();
  await fs.rm(dir, { recursive: true, force: true });
});

/** Our service reading the corpus the way the app would: agent dir + the corpus's instances. */
async function serviceOn(pool: ScanPool | null, home: string): Promise<UsageService> {
  await fs.mkdir(path.join(dir, home));
  const paths = { ...createPaths({ configDir: path.join(dir, home), agentDir: corpus }), instancesDir: path.join(corpus, 'instances') };
  const ctx = { paths, clock: new ManualClock(), logger: silentLogger, events: new AppEvents(), appConfig: new AppConfigStore(paths.appConfig), env: {} };
  const s = new UsageService(ctx, { pool, workerThresholdBytes: 0 });
  s.start();
  return s;
}

async function ccusageDaily(zone: string): Promise<CcusageDay[]> {
  const dirs = [corpus, path.join(corpus, 'instances/work'), path.join(corpus, 'instances/personal')].join(',');
  const home = path.join(dir, 'empty-home');
  await fs.mkdir(home, { recursive: true });
  const { stdout } = await run(ccusage, ['claude', 'daily', '--offline', '--json', '--timezone', zone], {
    env: { ...process.env, HOME: home, CLAUDE_CONFIG_DIR: dirs, TZ: 'UTC' },
    maxBuffer: 64 << 20,
  });
  return (JSON.parse(stdout) as { daily: CcusageDay[] }).daily;
}

const relative = (a: number, b: number) => (a === b ? 0 : Math.abs(a - b) / Math.max(Math.abs(a), Math.abs(b)));

describe('cross-check against ccusage 20.0.24', () => {
  it.each(['UTC', 'America/Los_Angeles'])('daily tokens and Claude costs agree (%s)', async (zone) => {
    const [theirs, ours] = await Promise.all([ccusageDaily(zone), service.daily({ tz: zone })]);
    expect(theirs.length).toBeGreaterThan(10);
    expect(ours.map((d) => [d.date, d.inputTokens, d.outputTokens, d.cacheWriteTokens, d.cacheReadTokens])).toEqual(
      theirs.map((d) => [d.date, d.inputTokens, d.outputTokens, d.cacheCreationTokens, d.cacheReadTokens]),
    );
    let claudeRows = 0;
    for (const [i, day] of theirs.entries()) {
      for (const b of day.modelBreakdowns.filter((m) => m.modelName.startsWith('claude-'))) {
        claudeRows++;
        expect(relative(ours[i]!.modelBreakdown[b.modelName]!.cost, b.cost), `${day.date} ${b.modelName}`).toBeLessThan(1e-9);
      }
      // gpt-5, gemini-2.5-pro and glm-4.6 carry ccusage's rates too, so whole days agree as well
      expect(relative(ours[i]!.cost, day.totalCost), day.date).toBeLessThan(1e-9);
    }
    expect(claudeRows).toBeGreaterThan(10);
  }, 60_000);

  it('reads the same requests with scan workers as in one thread', async () => {
    const threaded = await serviceOn(new ScanPool(2), 'home-threaded');
    try {
      const [a, b] = await Promise.all([threaded.daily({ tz: 'UTC' }), service.daily({ tz: 'UTC' })]);
      expect(threaded.lastScan()?.usedWorkers).toBe(true);
      expect(a).toEqual(b);
      expect(await threaded.sessions({ tz: 'UTC' }, 1000, 0)).toEqual(await service.sessions({ tz: 'UTC' }, 1000, 0));
    } finally {
      await threaded.stop();
    }
  }, 60_000);
});
