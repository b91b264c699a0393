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
import { UsageService } from '../../../../main/services/usage/usage-service.js';
import { waitFor } from '../../../helpers/wait.js';
import { stopWriter, WRITER_WAITS } from '../../../helpers/sqlite-writer.js';

/**
 * The SQLite agents read end to end (OpenCode's database, Goose, Hermes): each row of these stores
 * was run through ccusage 20.0.24 (`ccusage <agent> daily|session --json --offline --timezone UTC`)
 * and the expected figures are its answers, except where docs/usage.md says we differ and why.
 */
let dir: string;
let warnings: string[];
let service: UsageService;
let writer: ChildProcessWithoutNullStreams | null = null;

const sql = (db: string, text: string) => execFileSync('sqlite3', [db], { input: text, stdio: ['pipe', 'ignore', 'pipe'] });

async function serviceWith(env: Record<string, string>): Promise<UsageService> {
  const paths = createPaths({ configDir: path.join(dir, 'config'), agentDir: path.join(dir, 'no-claude') });
  const logger = createLogger('warn', (l) => warnings.push(l));
  service = new UsageService({ paths, clock: new ManualClock(), logger, events: new AppEvents(), appConfig: new AppConfigStore(paths.appConfig), env: { HOME: path.join(dir, 'home'), ...env } }, { pool: null });
  service.start();
  return service;
}

async function days(agent: string) {
  await service.refresh();
  return (await service.daily({ tz: 'UTC', agent })).map((d) => ({ date: d.date, input: d.inputTokens, output: d.outputTokens, read: d.cacheReadTokens, write: d.cacheWriteTokens, total: d.agentBreakdown[agent]!.totalTokens, cost: d.cost, models: d.modelsUsed }));
}

/** Resolves when `check` holds: a condition, not a guessed sleep. */
async function until(check: () => Promise<boolean> | boolean): Promise<void> {
  await waitFor(check, Boolean, { pollMs: 10 });
}

beforeEach(async () => {
  dir = await fs.mkdtemp(path.join(os.tmpdir(), 'switchboard-sqlite-agents-'));
  await fs.mkdir(path.join(dir, 'home'));
  warnings = [];
});

afterEach(async () => {
  await stopWriter(writer);
  writer = null;
  await service?.stop();
  await fs.rm(dir, { recursive: true, force: true });
});

const GOOSE_TABLE = 'CREATE TABLE sessions (id TEXT PRIMARY KEY, model_config_json TEXT, provider_name TEXT, created_at TEXT, total_tokens INTEGER, input_tokens INTEGER, output_tokens INTEGER, accumulated_total_tokens INTEGER, accumulated_input_tokens INTEGER, accumulated_output_tokens INTEGER);\n';
const gooseRow = (id: string, model: string | null, created: string, plain: [number | null, number | null, number | null], acc: [number | null, number | null, number | null] = [null, null, null]) =>
  `INSERT INTO sessions VALUES('${id}',${model === null ? 'NULL' : `'{"model_name":"${model}"}'`},NULL,${created},${[...plain, ...acc].map((v) => (v === null ? 'NULL' : v)).join(',')});\n`;

describe('goose', () => {
  it('session totals on the creation date: accumulated counts first, the rest of the total is extra even with no output, every created_at form ccusage reads', async () => {
    const db = path.join(dir, 'goose', 'data', 'sessions', 'sessions.db');
    await fs.mkdir(path.dirname(db), { recursive: true });
    sql(db, GOOSE_TABLE +
      gooseRow('s1', 'claude-sonnet-4-5', "'2026-01-02 23:30:00'", [null, null, null], [180, 100, 50]) + // SQLite's CURRENT_TIMESTAMP form, UTC
      gooseRow('s2', 'claude-sonnet-4-5', "'2026-01-03T10:00:00Z'", [500, 300, 0]) + // 200 extra, output stays 0
      gooseRow('s3', 'gpt-5', '1767400000', [1000, 600, 200], [0, 0, 0]) + // epoch seconds; accumulated 0 → the plain counts
      gooseRow('s4', 'gpt-5', "'1767400000000'", [null, 1000, 10]) + // epoch ms
      gooseRow('s5', null, "'2026-01-03 10:00:00'", [null, 1000, 10]) + // no model config: skipped
      gooseRow('s6', '', "'2026-01-03 10:00:00'", [null, 1000, 10]) + // an empty model: skipped
      gooseRow('s7', 'mystery-x', "'2026-01-03'", [null, 1000, 10]) + // a bare date: UTC midnight; nobody prices it
      gooseRow('s8', 'gpt-5', "'2026-01-04 10:00:00'", [50, 100, 10]) + // a total below the parts adds nothing
      gooseRow('s9', 'gpt-5', "'2026-01-04 10:00:00'", [null, 200, 10]) +
      gooseRow('s10', 'gpt-5', "'2026-01-04 10:00:00'", [null, null, null], [null, 5, null]) +
      gooseRow('s11', 'gpt-5', "'2026-01-04T10:00:00+09:00'", [null, 7, null]) +
      gooseRow('s12', 'gpt-5', "'junk'", [null, 7, null]) + // an unreadable created_at: skipped
      gooseRow('s13', 'gpt-5', '1767400000.5', [null, 9, null])); // a fraction in a TEXT column: skipped, as ccusage does
    await serviceWith({ GOOSE_PATH_ROOT: path.join(dir, 'goose') });
    const got = await days('goose');
    expect(got.map(({ cost: _c, ...d }) => d)).toEqual([
      { date: '2026-01-02', input: 100, output: 50, read: 0, write: 0, total: 180, models: ['claude-sonnet-4-5'] },
      { date: '2026-01-03', input: 2900, output: 220, read: 0, write: 0, total: 3520, models: ['claude-sonnet-4-5', 'gpt-5', 'mystery-x'] },
      { date: '2026-01-04', input: 312, output: 20, read: 0, write: 0, total: 332, models: ['gpt-5'] },
    ]);
    // ccusage's costs: 0.0015, 0.01 (0.0039 of it for s2's 200 extra tokens at the output rate), 0.00059.
    [0.0015, 0.01, 0.00059].forEach((c, i) => expect(got[i]!.cost).toBeCloseTo(c, 12));
    expect((await service.summary({ tz: 'UTC', agent: 'goose' })).unpricedModels).toEqual(['mystery-x']);
    expect((await service.agents()).find((a) => a.id === 'goose')).toMatchObject({ supported: true, found: true, files: 1, records: 9 });
  });

  it('reads the committed rows while a writer holds its transaction open, then the new ones once it commits', async () => {
    const db = path.join(dir, 'goose', 'sessions.db'); // a default-shaped dir: the store in it
    await fs.mkdir(path.dirname(db), { recursive: true });
    sql(db, GOOSE_TABLE + gooseRow('a', 'gpt-5', "'2026-01-02 10:00:00'", [null, 100, 1]));
    await serviceWith({ GOOSE_PATH_ROOT: path.join(dir, 'goose') });
    expect((await days('goose')).map((d) => d.input)).toEqual([100]);
    writer = spawn('sqlite3', [db]);
    writer.stdin.write(`${WRITER_WAITS}BEGIN IMMEDIATE;\n${gooseRow('b', 'gpt-5', "'2026-01-02 11:00:00'", [null, 2000, 1])}`);
    await until(() => {
      try {
        execFileSync('sqlite3', [db, 'BEGIN IMMEDIATE; ROLLBACK;'], { stdio: ['ignore', 'ignore', 'pipe'] });
        return false;
      } catch (err) {
        return String((err as { stderr?: Buffer }).stderr).includes('locked');
      }
    });
    await fs.utimes(db, new Date(), new Date(Date.now() + 5_000)); // a changed store is queried again
    expect((await days('goose')).map((d) => d.input)).toEqual([100]);
    writer.stdin.write('COMMIT;\n');
    await until(async () => (await days('goose')).map((d) => d.input).join() === '2100');
    expect(warnings).toEqual([]);
  });
});

const HERMES_TABLE = 'CREATE TABLE sessions (id TEXT PRIMARY KEY, source TEXT NOT NULL, model TEXT, started_at REAL NOT NULL, message_count INTEGER DEFAULT 0, input_tokens INTEGER DEFAULT 0, output_tokens INTEGER DEFAULT 0, cache_read_tokens INTEGER DEFAULT 0, cache_write_tokens INTEGER DEFAULT 0, reasoning_tokens INTEGER DEFAULT 0, billing_provider TEXT, estimated_cost_usd REAL, actual_cost_usd REAL);\n';

describe('hermes', () => {
  it('session totals on started_at: reasoning is extra, an actual cost above 0 is the cost, the estimate never is', async () => {
    await fs.mkdir(path.join(dir, 'h1'));
    await fs.mkdir(path.join(dir, 'h2'));
    sql(path.join(dir, 'h1', 'state.db'), HERMES_TABLE + `
INSERT INTO sessions VALUES('h1','cli','claude-sonnet-4-5',1767398400.5,3,1000,100,500,200,50,'anthropic',NULL,NULL);
INSERT INTO sessions VALUES('h2','cli','claude-sonnet-4-5',1767398400,3,1000,100,0,0,0,'anthropic',0.5,0.25);
INSERT INTO sessions VALUES('h3','cli','claude-sonnet-4-5',1767398400,3,1000,100,0,0,0,'anthropic',0.5,NULL);
INSERT INTO sessions VALUES('h4','cli','claude-sonnet-4-5',1767398400,3,1000,100,0,0,0,'anthropic',0.5,0);
INSERT INTO sessions VALUES('h5','cli','claude-sonnet-4-5',1767398400,3,0,0,0,0,0,'anthropic',0.7,0.7);
INSERT INTO sessions VALUES('h6','cli','claude-haiku-4-5',1767484800000,3,1000,0,0,0,0,NULL,NULL,-1);
INSERT INTO sessions VALUES('h7','cli','  ',1767484800,3,1000,0,0,0,0,NULL,NULL,NULL);
INSERT INTO sessions VALUES('h8','cli','mystery-y',1767484800,3,1000,0,0,0,0,NULL,NULL,NULL);
INSERT INTO sessions VALUES('h9','cli','claude-haiku-4-5',1767484800,3,1000.7,-5,0,0,0,NULL,NULL,NULL);
INSERT INTO sessions VALUES('dup','cli','claude-haiku-4-5',1767484800,3,11,0,0,0,0,NULL,NULL,NULL);
`);
    sql(path.join(dir, 'h2', 'state.db'), HERMES_TABLE + "INSERT INTO sessions VALUES('dup','cli','claude-haiku-4-5',1767484800,3,11,0,0,0,0,NULL,NULL,NULL);\n");
    await serviceWith({ HERMES_HOME: `${path.join(dir, 'h1')}, ${path.join(dir, 'h2')}` });
    const got = await days('hermes');
    expect(got.map(({ cost: _c, ...d }) => d)).toEqual([
      // h5 (no tokens, a recorded cost) is dropped, as ccusage 20.0.24 drops it; h7 has no model.
      { date: '2026-01-03', input: 4000, output: 400, read: 500, write: 200, total: 5150, models: ['claude-sonnet-4-5'] },
      { date: '2026-01-04', input: 3011, output: 0, read: 0, write: 0, total: 3011, models: ['claude-haiku-4-5', 'mystery-y'] },
    ]);
    expect(got[0]!.cost).toBeCloseTo(0.26515, 12); // ccusage: h1 0.00615 + h2 0.25 (actual) + h3 and h4 0.0045 (priced)
    expect(got[1]!.cost).toBeCloseTo(2011 / 1e6, 12); // claude-haiku-4-5 at $1/M; dup counted once across the homes
    expect((await service.summary({ tz: 'UTC', agent: 'hermes' })).unpricedModels).toEqual(['mystery-y']);
  });

  it('a store locked past the busy wait: a warning, the last answer kept (nothing lost), the new rows read once the lock is gone', async () => {
    await fs.mkdir(path.join(dir, 'h1'));
    const db = path.join(dir, 'h1', 'state.db');
    sql(db, HERMES_TABLE + "INSERT INTO sessions VALUES('a','cli','claude-haiku-4-5',1767484800,3,100,0,0,0,0,NULL,NULL,NULL);\n");
    await serviceWith({ HERMES_HOME: path.join(dir, 'h1') });
    expect((await days('hermes')).map((d) => d.input)).toEqual([100]);
    // An exclusive lock (rollback journal) keeps every reader out until the writer ends.
    writer = spawn('sqlite3', [db]);
    writer.stdin.write(WRITER_WAITS + "BEGIN EXCLUSIVE;\nINSERT INTO sessions VALUES('b','cli','claude-haiku-4-5',1767484800,3,20,0,0,0,0,NULL,NULL,NULL);\n");
    await until(() => {
      try {
        execFileSync('sqlite3', ['-readonly', db, 'SELECT count(*) FROM sessions;'], { stdio: ['ignore', 'ignore', 'pipe'] });
        return false;
      } catch (err) {
        return String((err as { stderr?: Buffer }).stderr).includes('locked');
      }
    });
    await fs.utimes(db, new Date(), new Date(Date.now() + 5_000)); // changed: the next scan queries it
    expect((await days('hermes')).map((d) => d.input)).toEqual([100]);
    expect(warnings.some((w) => w.includes(`cannot read ${db}`) && /locked/.test(w))).toBe(true);
    writer.stdin.write('COMMIT;\n');
    await until(async () => (await days('hermes')).map((d) => d.input).join() === '120');
  }, 30_000); // the read waits out sqlite3's 2 s busy timeout at least once: over vitest's 5 s on a busy machine

  it('an unchanged store is not queried again', async () => {
    await fs.mkdir(path.join(dir, 'h1'));
    const db = path.join(dir, 'h1', 'state.db');
    sql(db, HERMES_TABLE + "INSERT INTO sessions VALUES('a','cli','claude-haiku-4-5',1767484800,3,100,0,0,0,0,NULL,NULL,NULL);\n");
    const whole = new Date(Date.UTC(2026, 0, 5)); // whole seconds: utimes would round a finer mtime
    await fs.utimes(db, whole, whole);
    await serviceWith({ HERMES_HOME: path.join(dir, 'h1') });
    expect((await days('hermes')).map((d) => d.input)).toEqual([100]);
    const stat = await fs.stat(db);
    await fs.writeFile(db, Buffer.alloc(stat.size, 0x41)); // were it queried, this would fail the read
    await fs.utimes(db, whole, whole);
    expect((await days('hermes')).map((d) => d.input)).toEqual([100]);
    expect(warnings).toEqual([]);
  });
});

describe('damaged stores', () => {
  it('a store without its table, or a file that is not a database: that agent is empty, a warning names it, the others are read', async () => {
    await fs.mkdir(path.join(dir, 'goose'));
    sql(path.join(dir, 'goose', 'sessions.db'), 'CREATE TABLE other(x);\n');
    await fs.mkdir(path.join(dir, 'h1'));
    await fs.writeFile(path.join(dir, 'h1', 'state.db'), 'this is not a database, only text that says so.\n'.repeat(100));
    await fs.mkdir(path.join(dir, 'h2'));
    sql(path.join(dir, 'h2', 'state.db'), HERMES_TABLE + "INSERT INTO sessions VALUES('a','cli','claude-haiku-4-5',1767484800,3,100,0,0,0,0,NULL,NULL,NULL);\n");
    await serviceWith({ GOOSE_PATH_ROOT: path.join(dir, 'goose'), HERMES_HOME: `${path.join(dir, 'h1')},${path.join(dir, 'h2')}` });
    expect(await days('goose')).toEqual([]);
    expect((await days('hermes')).map((d) => d.input)).toEqual([100]);
    expect(warnings.some((w) => w.includes(path.join(dir, 'goose', 'sessions.db')) && /no such table: sessions/.test(w))).toBe(true);
    expect(warnings.some((w) => w.includes(path.join(dir, 'h1', 'state.db')) && /not a database/.test(w))).toBe(true);
  });
});

const OC = '"modelID":"claude-sonnet-4-5","providerID":"anthropic","time":{"created":1767348000000}';

describe('opencode.db', () => {
  it('the database and the file storage count a message once, as the database has it; row columns name the message and session', async () => {
    const oc = path.join(dir, 'oc');
    await fs.mkdir(path.join(oc, 'storage', 'message', 'ses_f'), { recursive: true });
    sql(path.join(oc, 'opencode.db'), `PRAGMA journal_mode=WAL;
CREATE TABLE message (id TEXT PRIMARY KEY, session_id TEXT NOT NULL, time_created INTEGER, time_updated INTEGER, data TEXT NOT NULL);
INSERT INTO message VALUES('m1','ses_db',1,1,'{"role":"assistant",${OC},"tokens":{"input":100,"output":10,"reasoning":5,"cache":{"read":0,"write":0}}}');
INSERT INTO message VALUES('m2','ses_db',1,1,'{"id":"other","sessionID":"ses_data",${OC},"tokens":{"input":200,"output":10,"reasoning":0,"cache":{"read":0,"write":0}}}');
INSERT INTO message VALUES('m3','ses_db',1,1,'{not json');
INSERT INTO message VALUES('m4','ses_db',1,1,'{${OC},"cost":0.5,"tokens":{"input":400,"output":0,"reasoning":0,"total":450,"cache":{"read":0,"write":0}}}');
`);
    const file = (id: string, input: number) => fs.writeFile(path.join(oc, 'storage', 'message', 'ses_f', `${id}.json`), `{"id":"${id}","sessionID":"ses_f",${OC},"tokens":{"input":${input},"output":10,"reasoning":0,"cache":{"read":0,"write":0}}}`);
    await file('m1', 9000); // larger than the database's m1, still loses to it
    await file('other', 7000); // m2's data says "other", but the row is m2: this file counts
    // A second root with channel databases only: the first by name is read (alpha), not beta.
    const oc2 = path.join(dir, 'oc2');
    await fs.mkdir(oc2);
    sql(path.join(oc2, 'opencode-beta.db'), `CREATE TABLE message (id TEXT PRIMARY KEY, session_id TEXT NOT NULL, data TEXT NOT NULL); INSERT INTO message VALUES('b1','x','{${OC},"tokens":{"input":55555,"output":1}}');`);
    sql(path.join(oc2, 'opencode-alpha.db'), `CREATE TABLE message (id TEXT PRIMARY KEY, session_id TEXT NOT NULL, data TEXT NOT NULL); INSERT INTO message VALUES('a1','x','{${OC},"tokens":{"input":13,"output":1}}');`);
    await serviceWith({ OPENCODE_DATA_DIR: `${oc2},${oc}` });
    await service.refresh();
    const sessions = (await service.sessions({ tz: 'UTC', agent: 'opencode' }, 100, 0)).sessions.map((s) => [s.sessionId, s.inputTokens, s.outputTokens, s.totalTokens]).sort();
    // ccusage 20.0.24 on the same dirs: ses_db 700/70 (775 with m1's reasoning, $0.501275), ses_f 7000/10 ($0.02115), x 13/1 ($0.000054).
    expect(sessions).toEqual([
      ['ses_db', 700, 70, 770],
      ['ses_f', 7000, 10, 7010],
      ['x', 13, 1, 14],
    ]);
    const [day] = await days('opencode');
    expect(day!.total).toBe(775 + 7010 + 14);
    expect(day!.cost).toBeCloseTo(0.501275 + 0.02115 + 0.000054, 12);
    expect((await service.agents()).find((a) => a.id === 'opencode')).toMatchObject({ files: 4 });
  });
});

describe('the incremental scan and the disk cache', () => {
  it('a restart answers from the cache (the database still beating a file); unchanged stores are not read; a changed one is read again', async () => {
    const oc = path.join(dir, 'oc');
    await fs.mkdir(path.join(oc, 'storage', 'message', 's'), { recursive: true });
    const ocDb = path.join(oc, 'opencode.db');
    sql(ocDb, `PRAGMA journal_mode=WAL;\nCREATE TABLE message (id TEXT PRIMARY KEY, session_id TEXT NOT NULL, data TEXT NOT NULL);\nINSERT INTO message VALUES('m1','s','{${OC},"tokens":{"input":100,"output":1}}');\n`);
    await fs.writeFile(path.join(oc, 'storage', 'message', 's', 'm1.json'), `{"id":"m1","sessionID":"s",${OC},"tokens":{"input":9000,"output":1}}`);
    await fs.mkdir(path.join(dir, 'goose'));
    const gooseDb = path.join(dir, 'goose', 'sessions.db');
    sql(gooseDb, GOOSE_TABLE + gooseRow('a', 'gpt-5', "'2026-01-02 10:00:00'", [null, 20, 1]));
    await fs.mkdir(path.join(dir, 'h1'));
    sql(path.join(dir, 'h1', 'state.db'), HERMES_TABLE + "INSERT INTO sessions VALUES('a','cli','claude-haiku-4-5',1767484800,3,300,0,0,0,0,NULL,NULL,NULL);\n");
    const env = { OPENCODE_DATA_DIR: oc, GOOSE_PATH_ROOT: path.join(dir, 'goose'), HERMES_HOME: path.join(dir, 'h1') };
    // Written an hour ago, as stores no agent is writing to: a store changed just before its read
    // is read again by the next scan (a commit may have been in flight, agent-file.ts).
    const past = new Date(Date.now() - 3_600_000);
    for (const store of [ocDb, gooseDb, path.join(dir, 'h1', 'state.db')]) await fs.utimes(store, past, past);
    const first = await serviceWith(env);
    const before = await first.summary({ tz: 'UTC' });
    expect([before.agentBreakdown.opencode!.inputTokens, before.agentBreakdown.goose!.inputTokens, before.agentBreakdown.hermes!.inputTokens]).toEqual([100, 20, 300]);
    await first.whenPersisted();
    await first.stop();
    const second = await serviceWith(env);
    expect((await second.status()).cached).toBe(true);
    expect(await second.summary({ tz: 'UTC' })).toEqual(before);
    await second.refresh();
    expect(second.lastScan()).toMatchObject({ files: 4, filesRead: 0 });
    expect(await second.summary({ tz: 'UTC' })).toEqual(before);
    sql(gooseDb, gooseRow('b', 'gpt-5', "'2026-01-02 11:00:00'", [null, 5, 1]));
    await second.refresh();
    expect(second.lastScan()).toMatchObject({ filesRead: 1 });
    expect((await second.summary({ tz: 'UTC' })).agentBreakdown.goose!.inputTokens).toBe(25);
  });
});
