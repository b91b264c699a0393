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
 * The oracle for every other agent (issue 32): on logs from the project's generator
 * (`scripts/gen-agents.mjs`), each agent's tokens per day equal `ccusage <agent> daily --json
 * --offline --timezone <tz>` (ccusage 20.0.24) to the token, in UTC and in a zone that moves
 * requests across midnight, and costs agree to 1e-9 relative wherever ccusage prices the model.
 */

interface TheirDay {
  date: string;
  inputTokens: number;
  outputTokens: number;
  cacheCreationTokens: number;
  cacheReadTokens: number;
  totalTokens: number;
  modelsUsed?: string[];
  /** codex: per model. */
  models?: Record<string, unknown>;
  /** codex names it costUSD, the others totalCost. */
  costUSD?: number;
  totalCost?: number;
}

let dir: string;
let env: Record<string, string>;
let service: UsageService;
let ctxOf: (configDir: string) => ConstructorParameters<typeof UsageService>[0];

beforeAll(async () => {
  dir = await fs.mkdtemp(path.join(os.tmpdir(), 'switchboard-agents-oracle-'));
  const corpus = path.join(dir, 'data');
  await run(process.execPath, [generator, '--out', corpus, '--seed', '7', '--start', '2026-01-03', '--days', '8', '--sessions', '8', '--turns', '24', '--quiet']);
  env = JSON.parse(await fs.readFile(path.join(corpus, 'gen-agents-manifest.json'), 'utf8')).env;
  const home = path.join(dir, 'empty-home');
  await fs.mkdir(home);
  ctxOf = (configDir) => {
    const paths = createPaths({ configDir: path.join(dir, configDir), agentDir: path.join(dir, 'no-claude') });
    return { paths, clock: new ManualClock(), logger: silentLogger, events: new AppEvents(), appConfig: new AppConfigStore(paths.appConfig), env: { HOME: home, ...env } };
  };
  service = new UsageService(ctxOf('config'), { pool: null });
  service.start();
}, 60_000);

afterAll(async () => {
  await service?.stop();
  await fs.rm(dir, { recursive: true, force: true });
});

const theirDaily = (agent: string, zone: string) => ccusageDaily<TheirDay>(agent, zone, path.join(dir, 'empty-home'), env);

describe.each(['UTC', 'Asia/Tokyo'])('every agent against ccusage 20.0.24 (%s)', (zone) => {
  it.each(['codex', 'gemini', 'opencode', 'amp', 'qwen', 'pi', 'openclaw', 'droid', 'kilo', 'kimi', 'codebuff', 'copilot', 'goose', 'hermes'])('%s: tokens per day equal, costs agree', async (agent) => {
    const [theirs, ours] = await Promise.all([theirDaily(agent, zone), service.daily({ tz: zone, agent })]);
    expect(theirs.length).toBeGreaterThan(3);
    const tokens = (d: TheirDay) => [d.date, d.inputTokens, d.outputTokens, d.cacheReadTokens, d.cacheCreationTokens, d.totalTokens];
    expect(
      ours.map((d) => {
        const share = d.agentBreakdown[agent]!;
        return [d.date, d.inputTokens, d.outputTokens, d.cacheReadTokens, d.cacheWriteTokens, share.totalTokens];
      }),
    ).toEqual(theirs.map(tokens));
    // The same models each day (ccusage lists them in its own order; ours are sorted by name).
    expect(ours.map((d) => d.modelsUsed)).toEqual(theirs.map((d) => [...(d.modelsUsed ?? Object.keys(d.models ?? {}))].sort()));
    theirs.forEach((day, i) => {
      const cost = day.costUSD ?? day.totalCost ?? NaN;
      expect(relative(ours[i]!.cost, cost), `${agent} ${day.date}: ours ${ours[i]!.cost}, ccusage ${cost}`).toBeLessThan(1e-9);
    });
  });
});

describe('models nobody prices', () => {
  it('are listed in unpricedModels, not silently counted as 0', async () => {
    const summary = await service.summary({ tz: 'UTC', agent: 'opencode' });
    expect(summary.unpricedModels).toEqual(['mystery-coder-7b']);
    expect(summary.agents).toEqual(['opencode']);
    const all = await service.summary({ tz: 'UTC' });
    expect(all.agents).toEqual(['amp', 'codebuff', 'codex', 'copilot', 'droid', 'gemini', 'goose', 'hermes', 'kilo', 'kimi', 'openclaw', 'opencode', 'pi', 'qwen']);
    // qwen lines without a model and codebuff messages without one, as ccusage names them
    expect(all.unpricedModels).toEqual(['codebuff-unknown', 'mystery-coder-7b', 'unknown']);
  });
});

describe('scan workers', () => {
  it('read agent files as the main thread does: the same answers, every agent', async () => {
    await expectWorkersAnswerAlike(ctxOf('config-pool'), service);
  });
});
