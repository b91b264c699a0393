import { spawn, execFileSync, type ChildProcessWithoutNullStreams } from 'node:child_process';
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
import { waitFor } from '../../../helpers/wait.js';
import { stopWriter, WRITER_WAITS } from '../../../helpers/sqlite-writer.js';

/** Kilo's SQLite store read through the sqlite3 tool: WAL writes, a held write lock, damaged rows. */
let dir: string;
let db: string;
let service: UsageService;
let writer: ChildProcessWithoutNullStreams | null = null;

const message = (id: string, input: number, created = Date.UTC(2026, 0, 5, 12)) =>
  JSON.stringify({ id, role: 'assistant', modelID: 'claude-sonnet-4-5', providerID: 'anthropic', cost: 0, time: { created }, tokens: { input, output: 10, reasoning: 0, cache: { read: 0, write: 0 } } });
const insert = (id: string, input: number) => `INSERT INTO message VALUES('${id}','ses_1','${message(id, input)}');\n`;

async function inputOf(): Promise<number> {
  await service.refresh();
  const days = await service.daily({ tz: 'UTC', agent: 'kilo' });
  return days.reduce((n, d) => n + d.inputTokens, 0);
}

function isLocked(): boolean {
  try {
    execFileSync('sqlite3', [db, 'BEGIN IMMEDIATE; ROLLBACK;'], { stdio: ['ignore', 'ignore', 'pipe'] });
    return false;
  } catch (err) {
    return String((err as { stderr?: Buffer }).stderr).includes('locked');
  }
}

function rowCount(): number {
  try {
    return Number(execFileSync('sqlite3', ['-readonly', db, 'SELECT count(*) FROM message;'], { stdio: ['ignore', 'pipe', 'ignore'] }).toString().trim());
  } catch {
    return -1; // locked for a moment: not yet
  }
}

/** Resolves when `check` holds: a condition, not a guessed sleep. */
async function until(check: () => Promise<boolean> | boolean): Promise<void> {
  // Each check runs sqlite3 or a read: at load 10 one took over a second, so 5 s was not enough.
  await waitFor(check, Boolean, { pollMs: 10, ms: 20_000 });
}

beforeEach(async () => {
  dir = await fs.mkdtemp(path.join(os.tmpdir(), 'switchboard-kilo-'));
  await fs.mkdir(path.join(dir, 'kilo'));
  db = path.join(dir, 'kilo', 'kilo.db');
  execFileSync('sqlite3', [db], { input: `PRAGMA journal_mode=WAL;\nCREATE TABLE message(id TEXT PRIMARY KEY, session_id TEXT NOT NULL, data TEXT NOT NULL);\n${insert('m1', 100)}INSERT INTO message VALUES('bad','ses_1','{not json');\n` });
  const paths = createPaths({ configDir: path.join(dir, 'config'), agentDir: path.join(dir, 'no-claude') });
  await fs.mkdir(path.join(dir, 'home'));
  service = new UsageService(
    { paths, clock: new ManualClock(), logger: silentLogger, events: new AppEvents(), appConfig: new AppConfigStore(paths.appConfig), env: { HOME: path.join(dir, 'home'), KILO_DATA_DIR: path.join(dir, 'kilo') } },
    { pool: null },
  );
  service.start();
});

afterEach(async () => {
  await stopWriter(writer);
  writer = null;
  await service.stop();
  await fs.rm(dir, { recursive: true, force: true });
});

describe('kilo.db', () => {
  it('counts rows, skips a damaged data cell, and sees rows still in the write-ahead log while the agent holds its write lock', async () => {
    expect(await inputOf()).toBe(100);
    const status = (await service.agents()).find((a) => a.id === 'kilo');
    expect(status).toMatchObject({ supported: true, found: true, files: 1, records: 1 });
    // The agent keeps the store open: new rows sit in kilo.db-wal, kilo.db itself unchanged,
    // and an open write transaction holds the lock while we read.
    writer = spawn('sqlite3', [db]);
    writer.stdin.write(`${WRITER_WAITS}PRAGMA wal_autocheckpoint=0;\n${insert('m2', 2000)}`);
    // m2 is committed (into the WAL) before the transaction that holds the lock begins: waiting on
    // the lock alone could catch m2's own brief commit lock on a busy machine and read before it.
    await until(async () => rowCount() === 3);
    writer.stdin.write(`BEGIN IMMEDIATE;\n${insert('m3', 30000)}`);
    // The lock is held once another writer is refused (sqlite3's shell buffers its output to a pipe).
    await until(async () => isLocked());
    await fs.access(`${db}-wal`);
    expect(await inputOf()).toBe(2100); // m2 committed (in the WAL); m3 not yet committed
    writer.stdin.write('COMMIT;\n');
    await until(async () => (await inputOf()) === 32100);
  }, 30_000); // a dozen sqlite3 processes, waited on by condition: over vitest's 5 s on a busy machine (seen at load 12)

  it('an unchanged store is not queried again', async () => {
    await settled(); // written a while ago: nothing can be committing into it
    expect(await inputOf()).toBe(100);
    // Other rows under the very same stat: were it queried, the answer would change. (A damaged
    // store would not tell: a failed read keeps the store's earlier requests.)
    await rewriteKeepingStat(700);
    expect(await inputOf()).toBe(100);
  });

  it('a store written to just before its query is queried again by the next scan, its stat unchanged (a commit may have been in flight)', async () => {
    expect(await inputOf()).toBe(100); // read right after beforeEach wrote it
    await rewriteKeepingStat(700); // as a commit that became visible after the query would leave it
    expect(await inputOf()).toBe(700);
    // Settled now (its stat an hour old): read once more for the new stat, then not again.
    await settled();
    expect(await inputOf()).toBe(700);
    await rewriteKeepingStat(900);
    expect(await inputOf()).toBe(700);
  });
});

/** Puts the store's mtime an hour back, as a store no agent has written lately. */
async function settled(): Promise<void> {
  const past = new Date(Date.now() - 3_600_000);
  await fs.utimes(db, past, past);
}

/** Gives m1 `input` tokens in place (same size), then puts back the store's exact mtime (to the nanosecond). */
async function rewriteKeepingStat(input: number): Promise<void> {
  const ref = `${db}.ref`;
  execFileSync('touch', ['-r', db, ref]);
  const size = (await fs.stat(db)).size;
  execFileSync('sqlite3', [db], { input: `UPDATE message SET data = '${message('m1', input)}' WHERE id = 'm1';\nPRAGMA wal_checkpoint(TRUNCATE);\n` });
  execFileSync('touch', ['-r', ref, db]);
  await fs.rm(ref);
  expect((await fs.stat(db)).size).toBe(size);
  await fs.rm(`${db}-wal`, { force: true }); // emptied by the checkpoint; gone as when the agent closes the store
}

describe('sqlitePages', () => {
  it('hands on every row once, in rowid order, across page boundaries', async () => {
    const { sqlitePages, SQLITE_PAGE_ROWS } = await import('../../../../main/infra/sqlite-pages.js');
    const many = path.join(dir, 'pages.db');
    const n = SQLITE_PAGE_ROWS * 2 + 1;
    execFileSync('sqlite3', [many, `CREATE TABLE t(v INTEGER); WITH RECURSIVE c(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM c WHERE i < ${n}) INSERT INTO t SELECT i FROM c;`]);
    const seen: number[] = [];
    sqlitePages(many, 'rowid AS _rowid, v', 't', (row) => seen.push(row.v as number), { command: 'sqlite3', timeoutMs: 30_000, busyMs: 100 });
    expect(seen).toHaveLength(n);
    expect(seen.every((v, i) => v === i + 1)).toBe(true);
  });

  it('a missing sqlite3 tool is a plain error, not ENOENT (which would read as a vanished store)', async () => {
    const { sqlitePages } = await import('../../../../main/infra/sqlite-pages.js');
    let caught: unknown;
    try {
      sqlitePages(db, 'rowid AS _rowid', 'message', () => {}, { command: path.join(dir, 'no-such-sqlite3'), timeoutMs: 5_000, busyMs: 100 });
    } catch (err) {
      caught = err;
    }
    expect((caught as Error).message).toMatch(/sqlite3 is not available/);
    expect((caught as NodeJS.ErrnoException).code).toBeUndefined();
  });
});
