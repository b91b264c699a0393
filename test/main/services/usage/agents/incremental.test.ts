import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ManualClock } from '../../../../../main/infra/clock.js';
import { silentLogger } from '../../../../../main/infra/logger.js';
import { createPaths } from '../../../../../main/infra/paths.js';
import { AppConfigStore } from '../../../../../main/services/app-config/store.js';
import { AppEvents } from '../../../../../main/services/events.js';
import { UsageService } from '../../../../../main/services/usage/usage-service.js';

// Other agents' files join the incremental scan and the disk cache (issue 32, "Fast").
let dir: string;
let rollout: string;
let gemini: string;
const services: UsageService[] = [];

const turn = (ts: string, input: number) =>
  JSON.stringify({ timestamp: ts, type: 'event_msg', payload: { type: 'token_count', info: { last_token_usage: { input_tokens: input, cached_input_tokens: 0, output_tokens: 1, reasoning_output_tokens: 0, total_tokens: input + 1 } } } });

beforeEach(async () => {
  dir = await fs.mkdtemp(path.join(os.tmpdir(), 'switchboard-agents-inc-'));
  rollout = path.join(dir, 'codex', 'sessions', '2026', '01', '02', 'rollout-a.jsonl');
  await fs.mkdir(path.dirname(rollout), { recursive: true });
  await fs.writeFile(rollout, turn('2026-01-02T10:00:00.000Z', 100) + '\n');
  gemini = path.join(dir, 'gemini', 'h', 'chats', 'session-1.json');
  await fs.mkdir(path.dirname(gemini), { recursive: true });
  const tokens = { input: 1000, output: 50, cached: 0, thoughts: 20, tool: 0, total: 1000 }; // thoughts outside the total: priced only
  await fs.writeFile(gemini, JSON.stringify({ sessionId: 'g', messages: [{ id: 'm', timestamp: '2026-01-03T10:00:00.000Z', type: 'gemini', model: 'gemini-2.5-flash', tokens }] }));
});
afterEach(async () => {
  for (const s of services.splice(0)) await s.stop();
  await fs.rm(dir, { recursive: true, force: true });
});

function serviceOn(): UsageService {
  const paths = createPaths({ configDir: path.join(dir, 'home'), agentDir: path.join(dir, 'claude') });
  const ctx = { paths, clock: new ManualClock(), logger: silentLogger, events: new AppEvents(), appConfig: new AppConfigStore(paths.appConfig), env: { HOME: path.join(dir, 'nohome'), CODEX_HOME: path.join(dir, 'codex'), GEMINI_DATA_DIR: path.join(dir, 'gemini') } };
  const s = new UsageService(ctx, { pool: null });
  services.push(s);
  s.start();
  return s;
}

const inputs = async (s: UsageService) => (await s.daily({ tz: 'UTC', agent: 'codex' })).map((d) => [d.date, d.inputTokens]);

describe('agent files in the incremental scan', () => {
  it('an append is seen at the next refresh; a rewrite replaces what the file held; a removed file drops out', async () => {
    const s = serviceOn();
    expect(await inputs(s)).toEqual([['2026-01-02', 100]]);
    await fs.appendFile(rollout, turn('2026-01-02T11:00:00.000Z', 50) + '\n');
    await s.refresh();
    expect(await inputs(s)).toEqual([['2026-01-02', 150]]);
    expect(s.lastScan()).toMatchObject({ filesRead: 1 });
    await fs.writeFile(rollout, turn('2026-01-04T10:00:00.000Z', 7) + '\n');
    await s.refresh();
    expect(await inputs(s)).toEqual([['2026-01-04', 7]]);
    await fs.rm(rollout);
    await s.refresh();
    expect(await inputs(s)).toEqual([]);
  });

  it('an unchanged agent file is not read again', async () => {
    const s = serviceOn();
    await s.daily({ tz: 'UTC' });
    await s.refresh();
    expect(s.lastScan()).toMatchObject({ files: 2, filesRead: 0 });
  });

  it('the disk cache keeps agent, extra and priced-only tokens: a restart answers the same before any scan', async () => {
    const first = serviceOn();
    const before = await first.summary({ tz: 'UTC' });
    const cost = before.agentBreakdown.gemini!.cost;
    expect(cost).toBeCloseTo((1000 * 0.3 + 50 * 2.5 + 20 * 2.5) / 1e6, 15); // the 20 thoughts are priced
    expect(before.agentBreakdown.gemini!.totalTokens).toBe(1050); // but not in the total
    await first.whenPersisted();
    await first.stop();
    const second = serviceOn();
    expect((await second.status()).cached).toBe(true);
    expect(await second.summary({ tz: 'UTC' })).toEqual(before);
  });
});
