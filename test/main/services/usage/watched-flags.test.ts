import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ManualClock } from '../../../../main/infra/clock.js';
import { silentLogger } from '../../../../main/infra/logger.js';
import { createPaths } from '../../../../main/infra/paths.js';
import { AppConfigStore } from '../../../../main/services/app-config/store.js';
import { AppEvents } from '../../../../main/services/events.js';
import { UsageService } from '../../../../main/services/usage/usage-service.js';

// A loader's scan `flags` come from files other than the one it reads (copilot: the last
// session-state shutdown per session and model; kimi: config.json's model; codex: config.toml's
// service tier). When they change, the files read with the old flags are read again in that very
// refresh, watched or not, with the answer a cold scan gives.
let dir: string;
let homes = 0;
const services: UsageService[] = [];

const jsonl = (rows: object[]) => rows.map((r) => JSON.stringify(r) + '\n').join('');
const shutdown = (iso: string, input: number) => ({ type: 'session.shutdown', timestamp: iso, data: { modelMetrics: { 'gpt-4.1': { usage: { inputTokens: input, outputTokens: 1, cacheReadTokens: 0, cacheWriteTokens: 0 } } } } });
const chat = (iso: string, input: number, session = 'sess-a') => ({
  type: 'span',
  traceId: `t-${iso}-${session}`,
  spanId: 's',
  name: 'chat gpt-4.1',
  endTime: [Date.parse(iso) / 1000, 0],
  attributes: { 'gen_ai.operation.name': 'chat', 'gen_ai.response.model': 'gpt-4.1', 'gen_ai.conversation.id': session, 'gen_ai.usage.input_tokens': input },
});
const status = (iso: string, input: number, id: string) => ({ timestamp: Date.parse(iso) / 1000, message: { type: 'StatusUpdate', payload: { message_id: id, token_usage: { input_other: input, output: 10 } } } });
const codexTurn = (iso: string, input: number) => ({ timestamp: iso, type: 'event_msg', payload: { type: 'token_count', info: { last_token_usage: { input_tokens: input, cached_input_tokens: 0, output_tokens: 1, reasoning_output_tokens: 0, total_tokens: input + 1 } } } });

const p = (...parts: string[]) => path.join(dir, ...parts);
const events = (session: string) => p('copilot', 'session-state', session, 'events.jsonl');
const otelFile = () => p('copilot', 'otel', 'o.jsonl');
const kimiConfig = () => p('kimi', 'config.json');
const codexConfig = () => p('codex', 'config.toml');

async function write(file: string, text: string): Promise<void> {
  await fs.mkdir(path.dirname(file), { recursive: true });
  await fs.writeFile(file, text);
}

beforeEach(async () => {
  dir = await fs.mkdtemp(path.join(os.tmpdir(), 'switchboard-watched-flags-'));
  await fs.mkdir(p('claude', 'projects'), { recursive: true });
  await write(events('sess-a'), jsonl([shutdown('2026-01-02T10:00:00.000Z', 100)]));
  await write(events('sess-b'), jsonl([shutdown('2026-01-02T10:00:00.000Z', 7)]));
  await write(otelFile(), jsonl([chat('2026-01-02T09:00:00.000Z', 20_000), chat('2026-01-02T11:00:00.000Z', 1000), chat('2026-01-02T13:00:00.000Z', 3000)]));
  await write(kimiConfig(), JSON.stringify({ model: 'kimi-k2-0905-preview' }));
  await write(p('kimi', 'sessions', 'g', 's1', 'wire.jsonl'), jsonl([status('2026-01-02T10:00:00.000Z', 1000, 'm1')]));
  await write(p('codex', 'sessions', '2026', '01', '02', 'rollout-a.jsonl'), jsonl([{ timestamp: '2026-01-02T09:59:00.000Z', type: 'turn_context', payload: { model: 'gpt-5.4' } }, codexTurn('2026-01-02T10:00:00.000Z', 1000)]));
});
afterEach(async () => {
  for (const s of services.splice(0)) await s.stop();
  await fs.rm(dir, { recursive: true, force: true });
});

/** `home`: where config.yaml and the disk cache live; a fresh one is a cold scan. */
function serviceOn(watch: boolean, home = 'home', more: Record<string, string> = {}): UsageService {
  const paths = createPaths({ configDir: p(home), agentDir: p('claude') });
  const env = { HOME: p('nohome'), COPILOT_HOME: p('copilot'), KIMI_DATA_DIR: p('kimi'), CODEX_HOME: p('codex'), ...more };
  const s = new UsageService({ paths, clock: new ManualClock(), logger: silentLogger, events: new AppEvents(), appConfig: new AppConfigStore(paths.appConfig), env }, { pool: null });
  services.push(s);
  s.start({ watch });
  return s;
}

/** A watched service past its first scan, its watches armed and the walk after arming done. */
async function liveService(env: Record<string, string> = {}): Promise<UsageService> {
  const s = serviceOn(true, 'home', env);
  await s.refresh();
  await s.whenIdle();
  await s.refresh();
  expect(s.lastScan()).toMatchObject({ changesOnly: false });
  return s;
}

/** What a service that never read these files answers now. */
async function coldAnswer(agent?: string) {
  const cold = serviceOn(false, `cold-${++homes}`);
  return cold.daily({ tz: 'UTC', ...(agent !== undefined ? { agent } : {}) });
}

const inputs = async (s: UsageService, agent: string) => (await s.daily({ tz: 'UTC', agent })).map((d) => [d.date, d.inputTokens]);
const models = async (s: UsageService, agent: string) => (await s.daily({ tz: 'UTC', agent })).flatMap((d) => d.modelsUsed);
const cost = async (s: UsageService, agent: string) => (await s.daily({ tz: 'UTC', agent })).reduce((sum, d) => sum + d.cost, 0);

describe('a watched refresh after a loader’s flags changed', () => {
  it('copilot: a new session-state shutdown drops the untouched OTel file’s rows up to it', async () => {
    const s = await liveService();
    // 09:00 is sess-a's before its 10:00 shutdown (left to session-state); 11:00 and 13:00 count.
    expect(await inputs(s, 'copilot')).toEqual([['2026-01-02', 100 + 7 + 1000 + 3000]]);
    await fs.appendFile(events('sess-a'), jsonl([shutdown('2026-01-02T12:00:00.000Z', 600)]));
    await s.refresh();
    // The changed events file and the OTel file read with the old shutdowns; not sess-b's events.
    expect(s.lastScan()).toMatchObject({ changesOnly: true, filesRead: 2 });
    expect(await inputs(s, 'copilot')).toEqual([['2026-01-02', 100 + 500 + 7 + 3000]]);
    expect(await s.daily({ tz: 'UTC', agent: 'copilot' })).toEqual(await coldAnswer('copilot'));
    await s.refresh(); // nothing changed: nothing read
    expect(s.lastScan()).toMatchObject({ changesOnly: true, filesRead: 0 });
  });

  it('copilot: a session-state folder removed gives its rows back to the OTel file', async () => {
    const s = await liveService();
    await fs.appendFile(events('sess-a'), jsonl([shutdown('2026-01-02T12:00:00.000Z', 600)]));
    await s.refresh();
    await fs.rm(path.dirname(events('sess-a')), { recursive: true });
    await s.refresh();
    expect(s.lastScan()).toMatchObject({ changesOnly: true, filesRead: 1 });
    expect(await inputs(s, 'copilot')).toEqual([['2026-01-02', 7 + 20_000 + 1000 + 3000]]);
    expect(await s.daily({ tz: 'UTC', agent: 'copilot' })).toEqual(await coldAnswer('copilot'));
  });

  it('kimi: config.json names another model, and the next refresh prices the lines at it', async () => {
    const s = await liveService();
    expect(await models(s, 'kimi')).toEqual(['kimi-k2-0905-preview']);
    const before = await cost(s, 'kimi');
    await write(kimiConfig(), JSON.stringify({ model: 'kimi-k2-thinking' }));
    await s.refresh();
    expect(s.lastScan()).toMatchObject({ changesOnly: true, filesRead: 1 });
    expect(await models(s, 'kimi')).toEqual(['kimi-k2-thinking']);
    expect(await cost(s, 'kimi')).not.toBeCloseTo(before, 9);
    expect(await s.daily({ tz: 'UTC', agent: 'kimi' })).toEqual(await coldAnswer('kimi'));
    await fs.rm(kimiConfig()); // none: Kimi's default model
    await s.refresh();
    expect(await models(s, 'kimi')).toEqual(['kimi-for-coding']);
    await s.refresh();
    expect(s.lastScan()).toMatchObject({ changesOnly: true, filesRead: 0 });
  });

  it('kimi: a change of one root’s config.json reads only the files whose model comes from it', async () => {
    await write(p('kimi2', 'sessions', 'g', 's2', 'wire.jsonl'), jsonl([status('2026-01-02T11:00:00.000Z', 500, 'm2')]));
    await write(p('kimi2', 'config.json'), JSON.stringify({ model: 'kimi-k2-thinking' }));
    const s = await liveService({ KIMI_DATA_DIR: `${p('kimi')},${p('kimi2')}` });
    expect(await models(s, 'kimi')).toEqual(['kimi-k2-0905-preview', 'kimi-k2-thinking']);
    await write(p('kimi2', 'config.json'), JSON.stringify({ model: 'kimi-k2-turbo-preview' }));
    await s.refresh();
    expect(s.lastScan()).toMatchObject({ changesOnly: true, filesRead: 1 });
    expect(await models(s, 'kimi')).toEqual(['kimi-k2-0905-preview', 'kimi-k2-turbo-preview']);
  });

  it('codex: config.toml turns the fast tier on, and the next refresh bills it', async () => {
    const s = await liveService();
    const standard = await cost(s, 'codex');
    await write(codexConfig(), 'service_tier = "fast"\n');
    await s.refresh();
    expect(s.lastScan()).toMatchObject({ changesOnly: true, filesRead: 1 });
    expect(await cost(s, 'codex')).toBeCloseTo(2 * standard, 12); // gpt-5.4's fast multiplier
    expect(await s.daily({ tz: 'UTC', agent: 'codex' })).toEqual(await coldAnswer('codex'));
  });
});

describe('a restart from the disk cache after a loader’s flags changed', () => {
  it('reads again the files the cache holds with other flags (kimi’s model), and only those', async () => {
    const s = serviceOn(false);
    await s.refresh();
    await s.whenPersisted();
    await s.stop();
    await write(kimiConfig(), JSON.stringify({ model: 'kimi-k2-thinking' }));
    const again = serviceOn(false);
    expect((await again.status()).cached).toBe(true);
    await again.refresh();
    expect(again.lastScan()).toMatchObject({ filesRead: 1 });
    expect(await models(again, 'kimi')).toEqual(['kimi-k2-thinking']);
    expect(await again.daily({ tz: 'UTC' })).toEqual(await coldAnswer());
  });
});

describe('a watched refresh of a choosing agent', () => {
  it('codex: a change to an archived copy of a live session does not count it (the choice stands)', async () => {
    const live = p('codex', 'sessions', '2026', '01', '02', 'rollout-a.jsonl');
    const archived = p('codex', 'archived_sessions', '2026', '01', '02', 'rollout-a.jsonl');
    await write(archived, await fs.readFile(live, 'utf8'));
    const s = await liveService();
    expect(await inputs(s, 'codex')).toEqual([['2026-01-02', 1000]]);
    await fs.appendFile(archived, jsonl([codexTurn('2026-01-02T11:00:00.000Z', 5)]));
    await s.refresh();
    expect(s.lastScan()).toMatchObject({ changesOnly: true });
    expect(await inputs(s, 'codex')).toEqual([['2026-01-02', 1000]]);
    expect(await s.daily({ tz: 'UTC', agent: 'codex' })).toEqual(await coldAnswer('codex'));
  });
});
