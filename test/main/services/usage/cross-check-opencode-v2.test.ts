import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../../../main/infra/clock.js';
import { silentLogger } from '../../../../main/infra/logger.js';
import { createPaths } from '../../../../main/infra/paths.js';
import { AppConfigStore } from '../../../../main/services/app-config/store.js';
import { AppEvents } from '../../../../main/services/events.js';
import { UsageService } from '../../../../main/services/usage/usage-service.js';
import { expectWorkersAnswerAlike } from '../../../fixtures/usage/pooled-answers.js';
import { agentsGenerator as generator, ccusageDaily, relative, repoRoot as root, run } from '../../../fixtures/usage/ccusage-oracle.js';

/**
 * OpenCode 2's layout against ccusage 20.0.24 (`ccusage opencode daily --json --offline
 * --timezone <tz>`): the generator's `--opencode-v2` corpus (a 1.x store with both tables, a
 * fresh OpenCode 2 store, the file storage and a channel database beside them). Tokens per day
 * equal, in UTC and in a zone that moves requests across midnight; costs agree to 1e-9 relative.
 */

interface TheirDay {
  date: string;
  inputTokens: number;
  outputTokens: number;
  cacheCreationTokens: number;
  cacheReadTokens: number;
  totalTokens: number;
  modelsUsed: string[];
  totalCost: number;
}

let dir: string;
let dataDirs: string;
let service: UsageService;
let ctxOf: (configDir: string) => ConstructorParameters<typeof UsageService>[0];

beforeAll(async () => {
  dir = await fs.mkdtemp(path.join(os.tmpdir(), 'switchboard-opencode-v2-oracle-'));
  const corpus = path.join(dir, 'data');
  await run(process.execPath, [generator, '--out', corpus, '--seed', '11', '--start', '2026-01-03', '--days', '8', '--sessions', '8', '--turns', '24', '--agents', 'opencode', '--opencode-v2', '--quiet']);
  dataDirs = JSON.parse(await fs.readFile(path.join(corpus, 'gen-agents-manifest.json'), 'utf8')).env.OPENCODE_DATA_DIR;
  const home = path.join(dir, 'empty-home');
  await fs.mkdir(home);
  ctxOf = (configDir) => {
    const paths = createPaths({ configDir: path.join(dir, configDir), agentDir: path.join(dir, 'no-claude') });
    return { paths, clock: new ManualClock(), logger: silentLogger, events: new AppEvents(), appConfig: new AppConfigStore(paths.appConfig), env: { HOME: home, OPENCODE_DATA_DIR: dataDirs } };
  };
  service = new UsageService(ctxOf('config'), { pool: null });
  service.start();
}, 60_000);

afterAll(async () => {
  await service?.stop();
  await fs.rm(dir, { recursive: true, force: true });
});

const theirDaily = (dirs: string, zone: string) => ccusageDaily<TheirDay>('opencode', zone, path.join(dir, 'empty-home'), { OPENCODE_DATA_DIR: dirs });

describe('the corpus', () => {
  it('holds an OpenCode 2 store that ccusage 20.0.24 counts on its own (it reads the layout)', async () => {
    const fresh = dataDirs.split(',').find((d) => d.endsWith(`${path.sep}c`))!;
    const days = await theirDaily(fresh, 'UTC');
    expect(days.length).toBeGreaterThan(3);
    expect(days.reduce((n, d) => n + d.totalTokens, 0)).toBeGreaterThan(100_000);
  });
});

describe.each(['UTC', 'Asia/Tokyo'])('OpenCode 2 against ccusage 20.0.24 (%s)', (zone) => {
  it('tokens per day equal, the same models, costs agree', async () => {
    const [theirs, ours] = await Promise.all([theirDaily(dataDirs, zone), service.daily({ tz: zone, agent: 'opencode' })]);
    expect(theirs.length).toBeGreaterThan(3);
    expect(ours.map((d) => [d.date, d.inputTokens, d.outputTokens, d.cacheReadTokens, d.cacheWriteTokens, d.agentBreakdown.opencode!.totalTokens]))
      .toEqual(theirs.map((d) => [d.date, d.inputTokens, d.outputTokens, d.cacheReadTokens, d.cacheCreationTokens, d.totalTokens]));
    expect(ours.map((d) => d.modelsUsed)).toEqual(theirs.map((d) => [...d.modelsUsed].sort()));
    theirs.forEach((day, i) => {
      expect(relative(ours[i]!.cost, day.totalCost), `${day.date}: ours ${ours[i]!.cost}, ccusage ${day.totalCost}`).toBeLessThan(1e-9);
    });
  });
});

describe('scan workers', () => {
  it('read the OpenCode 2 stores as the main thread does', async () => {
    await expectWorkersAnswerAlike(ctxOf('config-pool'), service);
  });
});
