import { execFileSync, spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ManualClock } from '../../../../main/infra/clock.js';
import { createLogger } from '../../../../main/infra/logger.js';
import { createPaths } from '../../../../main/infra/paths.js';
import { AppConfigStore } from '../../../../main/services/app-config/store.js';
import { AppEvents } from '../../../../main/services/events.js';
import { readOpencodeDb } from '../../../../main/services/usage/agents/opencode-db.js';
import { UsageService } from '../../../../main/services/usage/usage-service.js';
import { waitFor } from '../../../helpers/wait.js';
import { stopWriter, WRITER_WAITS } from '../../../helpers/sqlite-writer.js';

/**
 * OpenCode 2's layout (`session_message` beside or instead of `message` in opencode.db). Every
 * expected figure here is what ccusage 20.0.24 (`ccusage opencode daily --json --offline`) answered
 * for the same rows (run by hand while writing this; the generated corpus is compared live in
 * cross-check-opencode-v2.test.ts).
 */
let dir: string;
let warnings: string[];
let service: UsageService | null = null;
let writer: ChildProcessWithoutNullStreams | null = null;

const sql = (db: string, text: string) => execFileSync('sqlite3', [db], { input: text, stdio: ['pipe', 'ignore', 'pipe'] });

/** OpenCode 2's tables as its migration 20260804233008_loose_psylocke creates them (the columns read here). */
const V2_TABLES = `CREATE TABLE session_v2 (id text PRIMARY KEY, project_id text NOT NULL, slug text NOT NULL, directory text NOT NULL, title text, version text NOT NULL, cost real DEFAULT 0 NOT NULL, tokens_input integer DEFAULT 0 NOT NULL, tokens_output integer DEFAULT 0 NOT NULL, tokens_reasoning integer DEFAULT 0 NOT NULL, tokens_cache_read integer DEFAULT 0 NOT NULL, tokens_cache_write integer DEFAULT 0 NOT NULL, model text, time_created integer NOT NULL, time_updated integer NOT NULL);
CREATE TABLE session_message (id text PRIMARY KEY, session_id text NOT NULL, type text NOT NULL, seq integer NOT NULL, time_created integer NOT NULL, time_updated integer NOT NULL, data text NOT NULL);
`;
const V1_TABLE = 'CREATE TABLE message (id text PRIMARY KEY, session_id text NOT NULL, time_created integer NOT NULL, time_updated integer NOT NULL, data text NOT NULL);\n';
const JAN2 = 1767348000000; // 2026-01-02T10:00:00Z
const JAN5 = 1767600000000; // 2026-01-05T08:00:00Z
const SONNET = '"model":{"id":"claude-sonnet-4-5","providerID":"anthropic"}';
const tokens = (input: number, output: number, more = '') => `"tokens":{"input":${input},"output":${output},"reasoning":0,"cache":{"read":0,"write":0}${more}}`;
const row = (id: string, type: string, seq: number, column: number, data: string) => `INSERT INTO session_message VALUES('${id}','ses_a','${type}',${seq},${column},${column},'${data}');\n`;

beforeEach(async () => {
  dir = await fs.mkdtemp(path.join(os.tmpdir(), 'switchboard-opencode-v2-'));
  await fs.mkdir(path.join(dir, 'home'));
  warnings = [];
});

afterEach(async () => {
  await stopWriter(writer);
  writer = null;
  await service?.stop();
  service = null;
  await fs.rm(dir, { recursive: true, force: true });
});

function brief(db: string) {
  const found = readOpencodeDb({ path: db });
  const records = found.records.map((r) => ({ id: r.key!.split('\u0000')[1], session: r.sessionId, at: new Date(r.timestamp).toISOString(), model: r.model, input: r.inputTokens, output: r.outputTokens, read: r.cacheReadTokens, write: r.cacheWrite5mTokens, extra: r.extraTokens, cost: r.loggedCost, project: r.projectPath }));
  return { records: records.sort((a, b) => a.id!.localeCompare(b.id!)), malformed: found.malformed };
}

describe('reading session_message', () => {
  it('assistant rows only, by the columns, with the older rules for tokens, cost and the model', async () => {
    const db = path.join(dir, 'opencode.db');
    sql(db, V2_TABLES +
      "INSERT INTO session_v2 VALUES('ses_a','p','s','/w/project','t','2.0.14',9.5,90000,90000,900,900000,9000,'{\"id\":\"claude-sonnet-4-5\",\"providerID\":\"anthropic\"}'," + JAN2 + ',' + JAN2 + ');\n' +
      row('m_user', 'user', 1, JAN2, `{"text":"hi",${tokens(5, 5)},"time":{"created":${JAN2}}}`) +
      row('m_a', 'assistant', 2, JAN2, `{"id":"named_in_data",${SONNET},"agent":"build","content":[],"cost":0,"tokens":{"input":100,"output":200,"reasoning":500,"cache":{"read":1000,"write":0}},"time":{"created":${JAN5}}}`) +
      row('m_cost', 'assistant', 3, JAN2, `{"model":{"id":"mystery-x","providerID":"local","variant":"high"},"cost":0.25,${tokens(10, 0, ',"total":900')},"time":{"created":${JAN2}}}`) +
      row('m_coltime', 'assistant', 4, JAN2, `{${SONNET},${tokens(7, 8)}}`) +
      row('m_isotime', 'assistant', 5, JAN2, `{${SONNET},${tokens(9, 1)},"time":{"created":"2026-01-04T10:00:00Z"}}`) +
      row('m_oldnames', 'assistant', 6, JAN2, `{"modelID":"claude-haiku-4-5","providerID":"anthropic",${tokens(3, 4)},"time":{"created":${JAN2}}}`) +
      row('m_mixed', 'assistant', 7, JAN2, `{"model":{"id":"claude-haiku-4-5"},"providerID":"anthropic",${tokens(2, 2)},"time":{"created":${JAN2}}}`) +
      row('m_noprovider', 'assistant', 8, JAN2, `{"model":{"id":"claude-haiku-4-5"},${tokens(50, 50)},"time":{"created":${JAN2}}}`) +
      row('m_stringmodel', 'assistant', 9, JAN2, `{"model":"claude-haiku-4-5",${tokens(50, 50)},"time":{"created":${JAN2}}}`) +
      row('m_notokens', 'assistant', 10, JAN2, `{${SONNET},"time":{"created":${JAN2}}}`) +
      row('m_switch', 'model-switched', 11, JAN2, `{${SONNET},"time":{"created":${JAN2}}}`) +
      row('m_broken', 'assistant', 12, JAN2, '{"tokens": {'));
    const got = brief(db);
    expect(got.malformed).toBe(1);
    const base = { session: 'ses_a', read: 0, write: 0, extra: 0, cost: null, project: '/w/project' };
    expect(got.records).toEqual([
      // the data's own id does not name the message; reasoning is extra; time.created, not the column
      { ...base, id: 'm_a', at: '2026-01-05T08:00:00.000Z', model: 'claude-sonnet-4-5', input: 100, output: 200, read: 1000, extra: 500 },
      // no time.created: the row's time_created; a string there is not read either (ccusage: the column)
      { ...base, id: 'm_coltime', at: '2026-01-02T10:00:00.000Z', model: 'claude-sonnet-4-5', input: 7, output: 8 },
      // a recorded cost above 0 is the cost; a total above the parts with no output is output
      { ...base, id: 'm_cost', at: '2026-01-02T10:00:00.000Z', model: 'mystery-x', input: 10, output: 890, cost: 0.25 },
      { ...base, id: 'm_isotime', at: '2026-01-02T10:00:00.000Z', model: 'claude-sonnet-4-5', input: 9, output: 1 },
      // model.id with the older providerID beside it counts; each field falls back on its own
      { ...base, id: 'm_mixed', at: '2026-01-02T10:00:00.000Z', model: 'claude-haiku-4-5', input: 2, output: 2 },
      { ...base, id: 'm_oldnames', at: '2026-01-02T10:00:00.000Z', model: 'claude-haiku-4-5', input: 3, output: 4 },
    ]);
  });

  it('a store with both tables: a message the older table counted is not counted again; one it did not count is', async () => {
    const db = path.join(dir, 'opencode.db');
    sql(db, V2_TABLES + V1_TABLE +
      `INSERT INTO message VALUES('both','ses_a',${JAN2},${JAN2},'{"role":"assistant","modelID":"claude-sonnet-4-5","providerID":"anthropic",${tokens(1, 2)},"time":{"created":${JAN2}}}');\n` +
      `INSERT INTO message VALUES('empty_in_v1','ses_a',${JAN2},${JAN2},'{"role":"assistant","modelID":"claude-sonnet-4-5","providerID":"anthropic",${tokens(0, 0)},"time":{"created":${JAN2}}}');\n` +
      `INSERT INTO message VALUES('user_in_v1','ses_a',${JAN2},${JAN2},'{"role":"user","time":{"created":${JAN2}}}');\n` +
      row('both', 'assistant', 1, JAN2, `{${SONNET},${tokens(10, 20)},"time":{"created":${JAN2}}}`) +
      row('empty_in_v1', 'assistant', 2, JAN2, `{${SONNET},${tokens(100, 200)},"time":{"created":${JAN2}}}`) +
      row('user_in_v1', 'assistant', 3, JAN2, `{${SONNET},${tokens(1000, 2000)},"time":{"created":${JAN2}}}`));
    const got = brief(db).records.map((r) => [r.id, r.input, r.output]);
    // ccusage 20.0.24: 1101 input, 2202 output for these rows
    expect(got).toEqual([['both', 1, 2], ['empty_in_v1', 100, 200], ['user_in_v1', 1000, 2000]]);
  });

  it('session_message without session_v2 is read (no project then); a store with neither table fails its read, naming it', async () => {
    const db = path.join(dir, 'opencode.db');
    sql(db, 'CREATE TABLE session_message (id text PRIMARY KEY, session_id text NOT NULL, type text NOT NULL, seq integer NOT NULL, time_created integer NOT NULL, time_updated integer NOT NULL, data text NOT NULL);\n' +
      row('m1', 'assistant', 1, JAN2, `{${SONNET},${tokens(5, 6)},"time":{"created":${JAN2}}}`));
    expect(brief(db).records.map((r) => [r.id, r.input, r.project])).toEqual([['m1', 5, null]]);
    const none = path.join(dir, 'none.db');
    sql(none, 'CREATE TABLE session_v2 (id text PRIMARY KEY);\n');
    expect(() => readOpencodeDb({ path: none })).toThrow(/neither a message nor a session_message table/);
  });
});

async function serviceWith(env: Record<string, string>): Promise<UsageService> {
  const paths = createPaths({ configDir: path.join(dir, 'config'), agentDir: path.join(dir, 'no-claude') });
  const logger = createLogger('warn', (l) => warnings.push(l));
  service = new UsageService({ paths, clock: new ManualClock(), logger, events: new AppEvents(), appConfig: new AppConfigStore(paths.appConfig), env: { HOME: path.join(dir, 'home'), ...env } }, { pool: null });
  service.start();
  return service;
}

async function inputs(): Promise<number[]> {
  await service!.refresh();
  return (await service!.daily({ tz: 'UTC', agent: 'opencode' })).map((d) => d.inputTokens);
}

describe('an OpenCode 2 store in the service', () => {
  it('is listed where GET /api/usage/agents looks, and its messages are counted', async () => {
    const oc = path.join(dir, 'oc');
    await fs.mkdir(oc);
    sql(path.join(oc, 'opencode.db'), 'PRAGMA journal_mode=WAL;\n' + V2_TABLES + row('m1', 'assistant', 1, JAN2, `{${SONNET},${tokens(100, 10)},"time":{"created":${JAN2}}}`));
    await serviceWith({ OPENCODE_DATA_DIR: oc });
    expect(await inputs()).toEqual([100]);
    const agent = (await service!.agents()).find((a) => a.id === 'opencode');
    expect(agent).toMatchObject({ found: true, files: 1, records: 1 });
    expect(JSON.stringify(agent)).toContain(oc);
    expect(warnings).toEqual([]);
  });

  it('locked past the busy wait: a warning, the last answer kept, the new rows read once the lock is gone', async () => {
    const oc = path.join(dir, 'oc');
    await fs.mkdir(oc);
    const db = path.join(oc, 'opencode.db');
    sql(db, V2_TABLES + row('m1', 'assistant', 1, JAN2, `{${SONNET},${tokens(100, 10)},"time":{"created":${JAN2}}}`));
    await serviceWith({ OPENCODE_DATA_DIR: oc });
    expect(await inputs()).toEqual([100]);
    writer = spawn('sqlite3', [db]);
    writer.stdin.write(WRITER_WAITS + 'BEGIN EXCLUSIVE;\n' + row('m2', 'assistant', 2, JAN2, `{${SONNET},${tokens(20, 1)},"time":{"created":${JAN2}}}`));
    await waitFor(() => {
      try {
        execFileSync('sqlite3', ['-readonly', db, 'SELECT count(*) FROM session_message;'], { stdio: ['ignore', 'ignore', 'pipe'] });
        return false;
      } catch (err) {
        return String((err as { stderr?: Buffer }).stderr).includes('locked');
      }
    }, Boolean, { pollMs: 10 });
    await fs.utimes(db, new Date(), new Date(Date.now() + 5_000)); // changed: the next scan queries it
    expect(await inputs()).toEqual([100]);
    expect(warnings.some((w) => w.includes(`cannot read ${db}`) && /locked/.test(w))).toBe(true);
    writer.stdin.write('COMMIT;\n');
    await waitFor(async () => (await inputs()).join(), (v) => v === '120', { pollMs: 10 });
  });

  it('damaged (not a database, or neither table): a warning naming it, the other root still read', async () => {
    const [bad, empty, good] = [path.join(dir, 'bad'), path.join(dir, 'empty'), path.join(dir, 'good')] as const;
    for (const d of [bad, empty, good]) await fs.mkdir(d);
    await fs.writeFile(path.join(bad, 'opencode.db'), 'not a database at all\n'.repeat(200));
    sql(path.join(empty, 'opencode.db'), 'CREATE TABLE session_v2 (id text PRIMARY KEY);\n');
    sql(path.join(good, 'opencode.db'), V2_TABLES + row('m1', 'assistant', 1, JAN2, `{${SONNET},${tokens(42, 1)},"time":{"created":${JAN2}}}`));
    await serviceWith({ OPENCODE_DATA_DIR: [bad, empty, good].join(',') });
    expect(await inputs()).toEqual([42]);
    expect(warnings.some((w) => w.includes(path.join(bad, 'opencode.db')) && /not a database/.test(w))).toBe(true);
    expect(warnings.some((w) => w.includes(path.join(empty, 'opencode.db')) && /neither a message nor a session_message table/.test(w))).toBe(true);
  });
});
