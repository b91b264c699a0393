import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assistantLine, type LineOptions } from '../../../fixtures/usage/lines.js';
import { usageHarness, type UsageHarness } from '../../../fixtures/usage/service.js';

/**
 * The oracle for de-duplication's edge cases, which the generated corpus barely holds: lines with
 * `message.id` but no `requestId` (keyed by session + message id + timestamp in `ccusage claude
 * daily`), the same instant spelled three ways, sessions taken from the path, a split message
 * across midnight. `ccusage claude daily --offline --json` (20.0.24) against our daily rows.
 */
const root = path.resolve(__dirname, '../../../..');
const ccusage = path.join(root, 'node_modules/.bin/ccusage');
const run = promisify(execFile);

const noReq = (o: LineOptions) => assistantLine({ req: null, input: 100, cacheRead: 1000, ...o });
const files: Record<string, string[]> = {
  'p/s1.jsonl': [
    // one reply split into three lines at three instants, partial output first: all three count
    noReq({ msg: 'm1', session: 's1', ts: '2025-11-03T10:00:00.000Z', output: 3 }),
    noReq({ msg: 'm1', session: 's1', ts: '2025-11-03T10:00:00.400Z', output: 5 }),
    noReq({ msg: 'm1', session: 's1', ts: '2025-11-03T10:00:01.000Z', output: 120 }),
    // a replay of the last one (same session, id and instant): one request, the larger kept
    noReq({ msg: 'm1', session: 's1', ts: '2025-11-03T10:00:01.000Z', output: 60 }),
    // one instant, three spellings: one request
    noReq({ msg: 'm2', session: 's1', ts: '2025-11-03T12:00:00.000Z', output: 7 }),
    noReq({ msg: 'm2', session: 's1', ts: '2025-11-03T12:00:00Z', output: 30 }),
    noReq({ msg: 'm2', session: 's1', ts: '2025-11-03T13:00:00.000+01:00', output: 11 }),
    // split across midnight: each line on its own day
    noReq({ msg: 'm4', session: 's1', ts: '2025-11-03T23:59:59.000Z', output: 4 }),
    noReq({ msg: 'm4', session: 's1', ts: '2025-11-04T00:00:01.000Z', output: 90 }),
    // both ids: the message.id + requestId rule, whatever the timestamps
    assistantLine({ msg: 'm3', req: 'r3', ts: '2025-11-03T14:00:00.000Z', output: 2 }),
    assistantLine({ msg: 'm3', req: 'r3', ts: '2025-11-03T14:00:02.000Z', output: 80 }),
    // no message.id: never merged
    noReq({ msg: null, ts: '2025-11-03T15:00:00.000Z', output: 6 }),
    noReq({ msg: null, ts: '2025-11-03T15:00:00.000Z', output: 6 }),
  ],
  // the same message id and instant in another session: another request
  'p/s2.jsonl': [noReq({ msg: 'm1', session: 's2', ts: '2025-11-03T10:00:00.000Z', output: 8 })],
  // no sessionId: the file stem, or the folder holding subagents/
  'p/abc.jsonl': [noReq({ msg: 'm5', session: null, ts: '2025-11-04T09:00:00.000Z', output: 10 })],
  'p/abc/subagents/agent-1.jsonl': [noReq({ msg: 'm5', session: null, ts: '2025-11-04T09:00:00.000Z', output: 50 })],
  'p/def.jsonl': [noReq({ msg: 'm5', session: null, ts: '2025-11-04T09:00:00.000Z', output: 20 })],
};

/** A daily (`date`) or monthly (`month`) row of ccusage's JSON. */
interface Row {
  date?: string;
  inputTokens: number;
  outputTokens: number;
  cacheCreationTokens: number;
  cacheReadTokens: number;
}

let h: UsageHarness;
beforeAll(async () => {
  h = await usageHarness();
  for (const [file, lines] of Object.entries(files)) await h.append(file, lines);
});
afterAll(() => h?.cleanup());

async function ccusageReport(report: 'daily' | 'monthly', zone: string): Promise<Row[]> {
  const { stdout } = await run(ccusage, ['claude', report, '--offline', '--json', '--timezone', zone], {
    env: { ...process.env, HOME: h.root, CLAUDE_CONFIG_DIR: h.agentDir, TZ: 'UTC' },
  });
  return (JSON.parse(stdout) as Record<string, Row[]>)[report]!;
}

const tokens = (r: Row) => r.inputTokens + r.outputTokens + r.cacheCreationTokens + r.cacheReadTokens;

describe('de-duplication edge cases against ccusage 20.0.24 daily', () => {
  it.each(['UTC', 'Asia/Tokyo'])('daily tokens agree (%s)', async (zone) => {
    const [theirs, ours] = await Promise.all([ccusageReport('daily', zone), h.service.daily({ tz: zone })]);
    expect(ours.map((d) => [d.date, d.inputTokens, d.outputTokens, d.cacheWriteTokens, d.cacheReadTokens])).toEqual(
      theirs.map((d) => [d.date, d.inputTokens, d.outputTokens, d.cacheCreationTokens, d.cacheReadTokens]),
    );
  });

  it('these lines are the case where ccusage daily and monthly disagree, and our monthly follows daily', async () => {
    const [daily, monthly, ours] = await Promise.all([
      ccusageReport('daily', 'UTC'),
      ccusageReport('monthly', 'UTC'),
      h.service.monthly({ tz: 'UTC' }),
    ]);
    const dailyTotal = daily.reduce((n, d) => n + tokens(d), 0);
    expect(monthly.reduce((n, m) => n + tokens(m), 0)).toBeLessThan(dailyTotal);
    expect(ours.reduce((n, m) => n + m.inputTokens + m.outputTokens + m.cacheWriteTokens + m.cacheReadTokens, 0)).toBe(dailyTotal);
  });
});
