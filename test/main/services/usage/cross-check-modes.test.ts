import { execFile } from 'node:child_process';
import fs from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { COST_MODES } from '../../../../main/services/usage/cost-mode.js';
import { assistantLine } from '../../../fixtures/usage/lines.js';
import { usageHarness, type UsageHarness } from '../../../fixtures/usage/service.js';

/**
 * The oracle for what the generated corpus does not hold: logged `costUSD` under each of
 * ccusage's cost modes, fast-mode rows (`<model>-fast`) and older Claude models ccusage prices.
 * `ccusage claude daily --offline --json --mode <m>` (20.0.24, offline) against our daily rows.
 */
const root = path.resolve(__dirname, '../../../..');
const ccusage = path.join(root, 'node_modules/.bin/ccusage');
const run = promisify(execFile);

const lines = [
  // a logged cost, on a priced model and on one no table knows
  assistantLine({ msg: 'a', req: 'ra', ts: '2025-11-03T10:00:00.000Z', input: 1000, output: 200, costUSD: 0.5 }),
  assistantLine({ msg: 'b', req: 'rb', ts: '2025-11-03T11:00:00.000Z', model: 'mystery-9', input: 50, output: 5, costUSD: 0.25 }),
  // no logged cost: auto falls back to the table, display counts 0
  assistantLine({ msg: 'c', req: 'rc', ts: '2025-11-03T12:00:00.000Z', input: 3000, output: 700, cacheRead: 9000, split: [100, 200] }),
  // fast mode, with and without a logged cost
  assistantLine({ msg: 'd', req: 'rd', ts: '2025-11-04T09:00:00.000Z', model: 'claude-opus-4-6', input: 400, output: 90, speed: 'fast' }),
  assistantLine({ msg: 'e', req: 're', ts: '2025-11-04T09:30:00.000Z', model: 'claude-opus-4-6', input: 400, output: 90, speed: 'fast', costUSD: 0.125 }),
  assistantLine({ msg: 'f', req: 'rf', ts: '2025-11-04T10:00:00.000Z', model: 'claude-opus-4-6', input: 400, output: 90 }),
  // older Claude models ccusage prices
  assistantLine({ msg: 'g', req: 'rg', ts: '2025-11-05T10:00:00.000Z', model: 'claude-3-sonnet-20240229', input: 2000, output: 300, cacheRead: 100 }),
  assistantLine({ msg: 'h', req: 'rh', ts: '2025-11-05T10:05:00.000Z', model: 'claude-3-opus-20240229', input: 2000, output: 300 }),
  assistantLine({ msg: 'i', req: 'ri', ts: '2025-11-05T10:10:00.000Z', model: 'claude-3-haiku-20240307', input: 2000, output: 300 }),
  assistantLine({ msg: 'j', req: 'rj', ts: '2025-11-05T10:15:00.000Z', model: 'claude-3-5-sonnet-20240620', input: 2000, output: 300 }),
  // a duplicate of `a` with a partial count: de-duplicated in every mode
  assistantLine({ msg: 'a', req: 'ra', ts: '2025-11-03T10:00:00.000Z', input: 1000, output: 20, costUSD: 0.05 }),
];

interface Day {
  date: string;
  inputTokens: number;
  outputTokens: number;
  totalCost: number;
  modelBreakdowns: Array<{ modelName: string; cost: number }>;
}

let h: UsageHarness;
beforeAll(async () => {
  h = await usageHarness();
  await h.append('p/s.jsonl', lines);
});
afterAll(() => h?.cleanup());

async function theirs(mode: string): Promise<Day[]> {
  const { stdout } = await run(ccusage, ['claude', 'daily', '--offline', '--json', '--timezone', 'UTC', '--mode', mode], {
    env: { ...process.env, HOME: h.root, CLAUDE_CONFIG_DIR: h.agentDir, TZ: 'UTC' },
  });
  return (JSON.parse(stdout) as { daily: Day[] }).daily;
}

const close = (a: number, b: number) => Math.abs(a - b) <= 1e-9 * Math.max(1, Math.abs(a), Math.abs(b));

describe('cost modes and fast rows against ccusage 20.0.24', () => {
  it.each(COST_MODES)('mode %s: daily tokens, costs and per-model costs agree', async (mode) => {
    const [days, ours] = await Promise.all([theirs(mode), h.service.daily({ tz: 'UTC', mode })]);
    expect(ours.map((d) => [d.date, d.inputTokens, d.outputTokens])).toEqual(days.map((d) => [d.date, d.inputTokens, d.outputTokens]));
    ours.forEach((d, i) => {
      const them = days[i]!;
      expect(close(d.cost, them.totalCost), `${d.date}: ${d.cost} vs ${them.totalCost}`).toBe(true);
      const theirModels = Object.fromEntries(them.modelBreakdowns.map((b) => [b.modelName, b.cost]));
      expect(Object.keys(d.modelBreakdown).sort()).toEqual(Object.keys(theirModels).sort());
      for (const [model, share] of Object.entries(d.modelBreakdown)) {
        expect(close(share.cost, theirModels[model]!), `${d.date} ${model}: ${share.cost} vs ${theirModels[model]}`).toBe(true);
      }
    });
  });

  it('the modes really differ on these lines (the test can fail)', async () => {
    const totals = await Promise.all(COST_MODES.map(async (mode) => (await h.service.summary({ tz: 'UTC', mode })).totalCost));
    expect(new Set(totals).size).toBe(3);
    const fast = (await h.service.models({ tz: 'UTC' })).models.map((m) => m.model);
    expect(fast).toContain('claude-opus-4-6-fast');
    expect(fast).toContain('claude-opus-4-6');
  });
});
