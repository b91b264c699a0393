import { execFileSync } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ManualClock } from '../../../../main/infra/clock.js';
import { silentLogger } from '../../../../main/infra/logger.js';
import { createPaths } from '../../../../main/infra/paths.js';
import { AppConfigStore } from '../../../../main/services/app-config/store.js';
import { AppEvents } from '../../../../main/services/events.js';
import { PERSIST_DELAY_MS, UsageService } from '../../../../main/services/usage/usage-service.js';

// A refresh in a long-running process (serve, the app) learns what changed from directory
// watches, not from a stat of every file (issue 32 point 3), and still counts exactly.
let dir: string;
let rollout: string;
let transcript: string;
const services: UsageService[] = [];

const turn = (ts: string, input: number) =>
  JSON.stringify({ timestamp: ts, type: 'event_msg', payload: { type: 'token_count', info: { last_token_usage: { input_tokens: input, cached_input_tokens: 0, output_tokens: 1, reasoning_output_tokens: 0, total_tokens: input + 1 } } } });
let n = 0;
const claudeLine = (ts: string, input: number) =>
  JSON.stringify({ type: 'assistant', timestamp: ts, sessionId: 's1', requestId: `req_${++n}`, message: { id: `msg_${n}`, model: 'claude-sonnet-4-5', usage: { input_tokens: input, output_tokens: 1 } } });

beforeEach(async () => {
  dir = await fs.mkdtemp(path.join(os.tmpdir(), 'switchboard-watched-scan-'));
  rollout = path.join(dir, 'codex', 'sessions', '2026', '01', '02', 'rollout-a.jsonl');
  await fs.mkdir(path.dirname(rollout), { recursive: true });
  await fs.writeFile(rollout, turn('2026-01-02T10:00:00.000Z', 100) + '\n');
  transcript = path.join(dir, 'claude', 'projects', 'p', 's1.jsonl');
  await fs.mkdir(path.dirname(transcript), { recursive: true });
  await fs.writeFile(transcript, claudeLine('2026-01-02T09:00:00.000Z', 10) + '\n');
});
afterEach(async () => {
  for (const s of services.splice(0)) await s.stop();
  await fs.rm(dir, { recursive: true, force: true });
});

function serviceOn(watch: boolean, env: Record<string, string> = {}): UsageService {
  const paths = createPaths({ configDir: path.join(dir, 'home'), agentDir: path.join(dir, 'claude') });
  const ctx = { paths, clock: new ManualClock(), logger: silentLogger, events: new AppEvents(), appConfig: new AppConfigStore(paths.appConfig), env: { HOME: path.join(dir, 'nohome'), CODEX_HOME: path.join(dir, 'codex'), ...env } };
  const s = new UsageService(ctx, { pool: null });
  services.push(s);
  s.start({ watch });
  return s;
}

/** A watched service past its first scan, its watches armed and the walk after arming done. */
async function liveService(env: Record<string, string> = {}): Promise<UsageService> {
  const s = serviceOn(true, env);
  await s.refresh();
  await s.whenIdle();
  await s.refresh();
  expect(s.lastScan()).toMatchObject({ changesOnly: false });
  return s;
}

const inputs = async (s: UsageService, agent: string) => (await s.daily({ tz: 'UTC', agent })).map((d) => [d.date, d.inputTokens]);

describe('a watched refresh', () => {
  it('sees an append to an agent file and to a Claude transcript without walking', async () => {
    const s = await liveService();
    await fs.appendFile(rollout, turn('2026-01-02T11:00:00.000Z', 50) + '\n');
    await s.refresh();
    expect(s.lastScan()).toMatchObject({ changesOnly: true, filesRead: 1, files: 2 });
    expect(await inputs(s, 'codex')).toEqual([['2026-01-02', 150]]);
    await fs.appendFile(transcript, claudeLine('2026-01-02T12:00:00.000Z', 5) + '\n');
    await s.refresh();
    expect(s.lastScan()).toMatchObject({ changesOnly: true, filesRead: 1 });
    expect(await inputs(s, 'claude')).toEqual([['2026-01-02', 15]]);
    await s.refresh(); // nothing changed: nothing read
    expect(s.lastScan()).toMatchObject({ changesOnly: true, filesRead: 0, files: 2 });
  });

  it('counts a rotated (renamed) file once, and drops a deleted one', async () => {
    const s = await liveService();
    await fs.rename(transcript, path.join(path.dirname(transcript), 's1-rotated.jsonl'));
    await s.refresh();
    expect(s.lastScan()).toMatchObject({ changesOnly: true, files: 2 });
    expect(await inputs(s, 'claude')).toEqual([['2026-01-02', 10]]);
    await fs.rm(path.join(path.dirname(transcript), 's1-rotated.jsonl'));
    await s.refresh();
    expect(s.lastScan()).toMatchObject({ changesOnly: true, files: 1 });
    expect(await inputs(s, 'claude')).toEqual([]);
    // codex chooses among its files (an archived copy of a live one): a file gone means a pass over its list.
    await fs.rm(rollout);
    await s.refresh();
    expect(s.lastScan()).toMatchObject({ changesOnly: false, files: 0 });
    expect(await inputs(s, 'codex')).toEqual([]);
  });

  it('finds a new session in a new folder, and answers as an unwatched service does', async () => {
    const s = await liveService();
    const later = path.join(dir, 'codex', 'sessions', '2026', '01', '05', 'rollout-b.jsonl');
    await fs.mkdir(path.dirname(later), { recursive: true });
    await fs.writeFile(later, turn('2026-01-05T10:00:00.000Z', 7) + '\n');
    await fs.appendFile(rollout, turn('2026-01-02T11:00:00.000Z', 1) + '\n');
    await s.refresh();
    const plain = serviceOn(false);
    expect(await s.daily({ tz: 'UTC' })).toEqual(await plain.daily({ tz: 'UTC' }));
    expect(await inputs(s, 'codex')).toEqual([
      ['2026-01-02', 101],
      ['2026-01-05', 7],
    ]);
  });

  it('without watch (the CLI), every refresh walks', async () => {
    const s = serviceOn(false);
    await s.refresh();
    await s.whenIdle();
    await s.refresh();
    expect(s.lastScan()).toMatchObject({ changesOnly: false });
  });
});

describe('the disk cache write after a refresh', () => {
  it('waits PERSIST_DELAY_MS off the refresh path (later changes join it), and a restart answers with the change', async () => {
    const s = serviceOn(false);
    await s.refresh();
    await s.whenPersisted();
    const cache = createPaths({ configDir: path.join(dir, 'home'), agentDir: path.join(dir, 'claude') }).usageCache;
    const before = (await fs.stat(cache)).mtimeMs;
    await fs.appendFile(rollout, turn('2026-01-02T11:00:00.000Z', 50) + '\n');
    const t0 = performance.now();
    await s.refresh();
    await fs.appendFile(rollout, turn('2026-01-02T12:00:00.000Z', 25) + '\n');
    await s.refresh(); // joins the waiting write
    await s.daily({ tz: 'UTC' });
    let rewritten = before;
    while (rewritten === before && performance.now() - t0 < 10_000) {
      await new Promise((r) => setTimeout(r, 20)); // polling for the write, bounded
      rewritten = (await fs.stat(cache)).mtimeMs;
    }
    expect(rewritten).not.toBe(before);
    expect(performance.now() - t0).toBeGreaterThanOrEqual(PERSIST_DELAY_MS - 50);
    await s.stop();
    const again = serviceOn(false);
    expect((await again.status()).cached).toBe(true);
    expect(await inputs(again, 'codex')).toEqual([['2026-01-02', 175]]);
    await again.refresh();
    expect(again.lastScan()).toMatchObject({ filesRead: 0 }); // the cache held both appends
  });
});

describe('a watched refresh of a SQLite store (no folder of its own is watched: one stat each look)', () => {
  const sql = (db: string, text: string) => execFileSync('sqlite3', [db], { input: text, stdio: ['pipe', 'ignore', 'pipe'] });
  const row = (id: string, input: number) =>
    `INSERT INTO sessions (id, model_config_json, created_at, input_tokens, output_tokens, total_tokens) VALUES ('${id}', '{"model_name":"gpt-5"}', '2026-01-02 10:00:00', ${input}, 1, ${input + 1});\n`;

  it('sees rows added to a goose store, and the store going away', async () => {
    const db = path.join(dir, 'goose', 'sessions.db');
    await fs.mkdir(path.dirname(db), { recursive: true });
    sql(db, 'CREATE TABLE sessions (id TEXT PRIMARY KEY, model_config_json TEXT, provider_name TEXT, created_at TEXT, total_tokens INTEGER, input_tokens INTEGER, output_tokens INTEGER, accumulated_total_tokens INTEGER, accumulated_input_tokens INTEGER, accumulated_output_tokens INTEGER);\n' + row('a', 100));
    const s = await liveService({ GOOSE_PATH_ROOT: path.join(dir, 'goose') });
    expect(await inputs(s, 'goose')).toEqual([['2026-01-02', 100]]);
    sql(db, row('b', 2000));
    await s.refresh();
    expect(s.lastScan()).toMatchObject({ changesOnly: true });
    expect(await inputs(s, 'goose')).toEqual([['2026-01-02', 2100]]);
    await fs.rm(db);
    await s.refresh();
    expect(s.lastScan()).toMatchObject({ changesOnly: true });
    expect(await inputs(s, 'goose')).toEqual([]);
  });
});
