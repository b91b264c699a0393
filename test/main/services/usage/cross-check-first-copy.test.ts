import { execFileSync } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../../../main/infra/clock.js';
import { silentLogger } from '../../../../main/infra/logger.js';
import { createPaths } from '../../../../main/infra/paths.js';
import { AppConfigStore } from '../../../../main/services/app-config/store.js';
import { AppEvents } from '../../../../main/services/events.js';
import { ScanPool } from '../../../../main/services/usage/scan-pool.js';
import { UsageService } from '../../../../main/services/usage/usage-service.js';
import { ccusageDaily } from '../../../fixtures/usage/ccusage-oracle.js';

/**
 * Which copy of an OpenCode message (a Hermes, Droid, Codebuff or Kilo request) counts when it is found more than once, against ccusage
 * 20.0.24 (`ccusage opencode daily --json --offline`): copies in two roots, a root's database
 * against another root's file, two files of one root, a root's database against its own file.
 * The copies differ in size and each message is on a day of its own, so each day's tokens tell
 * which copy was kept. Two files of one root with one message (not something OpenCode writes) are
 * identical here: ccusage keeps the first in the file system's listing order (observed; ext4 lists
 * by a hash of the names), which a scan in path order does not reproduce (docs/usage.md). Every order of the three roots is compared, and an order changed under a
 * disk cache (the files whose root moved are read again).
 */

let dir: string;
let roots: string[];
const home = () => path.join(dir, 'empty-home');
const DAY = 86_400_000;
const START = Date.UTC(2026, 0, 5, 12);

function message(id: string, session: string, input: number, day: number): Record<string, unknown> {
  return { id, sessionID: session, role: 'assistant', modelID: 'claude-sonnet-4-5', providerID: 'anthropic', cost: 0, time: { created: START + day * DAY }, tokens: { input, output: 1, reasoning: 0, cache: { read: 0, write: 0 } } };
}

async function file(root: string, session: string, name: string, m: Record<string, unknown>): Promise<void> {
  const at = path.join(root, 'storage', 'message', session);
  await fs.mkdir(at, { recursive: true });
  await fs.writeFile(path.join(at, name), JSON.stringify(m));
}

function database(root: string, rows: Array<Record<string, unknown>>): void {
  const quote = (s: string) => `'${s.replaceAll("'", "''")}'`;
  const inserts = rows.map((m) => `INSERT INTO message VALUES (${quote(String(m.id))}, 'ses_db', ${quote(JSON.stringify({ ...m, id: undefined, sessionID: undefined }))});`);
  execFileSync('sqlite3', [path.join(root, 'opencode.db')], { input: ['CREATE TABLE message (id TEXT PRIMARY KEY, session_id TEXT, data TEXT);', ...inserts].join('\n'), stdio: ['pipe', 'ignore', 'pipe'] });
}

beforeAll(async () => {
  dir = await fs.mkdtemp(path.join(os.tmpdir(), 'switchboard-opencode-copies-'));
  await fs.mkdir(home());
  roots = ['r1', 'r2', 'r3'].map((r) => path.join(dir, r));
  const [r1, r2, r3] = roots as [string, string, string];
  // m1: a file in r1 and in r2
  await file(r1, 's1', 'msg_m1.json', message('m1', 's1', 100, 0));
  await file(r2, 's1', 'msg_m1.json', message('m1', 's1', 500, 0));
  // m2: a file in r1, a database row in r2
  await file(r1, 's2', 'msg_m2.json', message('m2', 's2', 110, 1));
  // m3: two identical files of r1, and a larger copy in r2
  await file(r1, 's3a', 'msg_m3.json', message('m3', 's3', 120, 2));
  await file(r1, 's3b', 'msg_m3.json', message('m3', 's3', 120, 2));
  await file(r2, 's3', 'msg_m3.json', message('m3', 's3', 520, 2));
  // m4: r1's database row and r1's file, the file larger
  await file(r1, 's4', 'msg_m4.json', message('m4', 's4', 540, 3));
  // m5: two identical files of r2 in one session, and a row in r3's database
  await file(r2, 's5', 'msg_a.json', message('m5', 's5', 150, 4));
  await file(r2, 's5', 'msg_b.json', message('m5', 's5', 150, 4));
  // m6: a file in r1, a row in r3's database
  await file(r1, 's6', 'msg_m6.json', message('m6', 's6', 60, 5));
  // m7: found once (r3's file)
  await file(r3, 's7', 'msg_m7.json', message('m7', 's7', 70, 6));
  database(r1, [message('m4', 'x', 140, 3)]);
  database(r2, [message('m2', 'x', 510, 1)]);
  database(r3, [message('m5', 'x', 550, 4), message('m6', 'x', 560, 5)]);
  // Hermes: a session in each of three homes' state.db, each day's copies of other sizes.
  const sessions = (rows: Array<[string, number, number]>) =>
    [HERMES_TABLE, ...rows.map(([id, input, day]) => `INSERT INTO sessions (id, source, model, started_at, input_tokens, output_tokens) VALUES ('${id}', 'cli', 'claude-sonnet-4-5', ${(START + day * DAY) / 1000}, ${input}, 1);`)].join('\n');
  homes = ['h1', 'h2', 'h3'].map((h) => path.join(dir, h));
  const rows: Array<Array<[string, number, number]>> = [
    [['a', 100, 0], ['b', 110, 1]],
    [['a', 500, 0], ['c', 120, 2], ['b', 510, 1]],
    [['c', 520, 2], ['a', 900, 0], ['d', 130, 3]],
  ];
  for (const [i, h] of homes.entries()) {
    await fs.mkdir(h);
    execFileSync('sqlite3', [path.join(h, 'state.db')], { input: sessions(rows[i]!), stdio: ['pipe', 'ignore', 'pipe'] });
  }
  // Droid: session totals in three folders; the newer time wins, on equal times the later path.
  droidDirs = ['d1', 'd2', 'd3'].map((d) => path.join(dir, d));
  const droid = async (root: string, folder: string, session: string, input: number, at: number) => {
    await fs.mkdir(path.join(root, folder), { recursive: true });
    await fs.writeFile(path.join(root, folder, `${session}.settings.json`), JSON.stringify({ model: 'claude-sonnet-4-5', providerLockTimestamp: new Date(START + at).toISOString(), tokenUsage: { inputTokens: input, outputTokens: 1 } }));
  };
  const [d1, d2, d3] = droidDirs as [string, string, string];
  await droid(d1, 'p', 'a', 100, 0); // a: equal times in d1 and d3
  await droid(d3, 'p', 'a', 500, 0);
  await droid(d1, 'p', 'b', 110, 2 * DAY); // b: d1's newer, d2's larger
  await droid(d2, 'p', 'b', 510, DAY);
  await droid(d2, 'p1', 'c', 520, 3 * DAY); // c: two folders of d2, equal times, the earlier path larger
  await droid(d2, 'p2', 'c', 120, 3 * DAY);
  // Codebuff: one channel name in two roots; the later path wins, whichever root is named first.
  codebuffDirs = ['c1', 'c2'].map((c) => path.join(dir, c, 'manicode'));
  const chat = async (root: string, chatId: string, id: string, input: number, day: number) => {
    const at = path.join(root, 'projects', 'p', 'chats', chatId);
    await fs.mkdir(at, { recursive: true });
    await fs.writeFile(path.join(at, 'chat-messages.json'), JSON.stringify([{ id, variant: 'ai', timestamp: new Date(START + day * DAY).toISOString(), metadata: { model: 'claude-sonnet-4-5', usage: { inputTokens: input, outputTokens: 1 } } }]));
  };
  const [c1, c2] = codebuffDirs as [string, string];
  await chat(c1, 'x', 'm1', 100, 0);
  await chat(c2, 'x', 'm1', 500, 0);
  await chat(c1, 'y', 'm2', 510, 1);
  await chat(c2, 'y', 'm2', 110, 1);
  // Kilo: a message in two roots' kilo.db, and twice in one store (two rows naming one id).
  kiloDirs = ['k1', 'k2'].map((k) => path.join(dir, k));
  const kiloRows = (rows: Array<[string, string, number, number]>) =>
    ['CREATE TABLE message (id TEXT PRIMARY KEY, session_id TEXT, data TEXT);', ...rows.map(([row, id, input, day]) => `INSERT INTO message VALUES ('${row}', 's1', '${JSON.stringify(message(id, 's1', input, day))}');`)].join('\n');
  const kiloStores: Array<Array<[string, string, number, number]>> = [
    [['r1', 'm1', 100, 0], ['r2', 'm2', 110, 1], ['r3', 'm2', 510, 1]],
    [['r1', 'm1', 500, 0], ['r2', 'm3', 120, 2]],
  ];
  for (const [i, k] of kiloDirs.entries()) {
    await fs.mkdir(k);
    execFileSync('sqlite3', [path.join(k, 'kilo.db')], { input: kiloRows(kiloStores[i]!), stdio: ['pipe', 'ignore', 'pipe'] });
  }
}, 60_000);

let kiloDirs: string[];
let droidDirs: string[];
let codebuffDirs: string[];

let homes: string[];
const HERMES_TABLE = 'CREATE TABLE sessions (id TEXT PRIMARY KEY, source TEXT NOT NULL, model TEXT, started_at REAL NOT NULL, message_count INTEGER DEFAULT 0, input_tokens INTEGER DEFAULT 0, output_tokens INTEGER DEFAULT 0, cache_read_tokens INTEGER DEFAULT 0, cache_write_tokens INTEGER DEFAULT 0, reasoning_tokens INTEGER DEFAULT 0, billing_provider TEXT, estimated_cost_usd REAL, actual_cost_usd REAL);';

afterAll(() => fs.rm(dir, { recursive: true, force: true }));

interface TheirDay {
  date: string;
  inputTokens: number;
  outputTokens: number;
  totalTokens: number;
}

const orders = [
  [0, 1, 2],
  [0, 2, 1],
  [1, 0, 2],
  [1, 2, 0],
  [2, 0, 1],
  [2, 1, 0],
];

function serviceFor(configDir: string, dirs: string, pool: ScanPool | null, variable = 'OPENCODE_DATA_DIR'): UsageService {
  const paths = createPaths({ configDir: path.join(dir, configDir), agentDir: path.join(dir, 'no-claude') });
  const service = new UsageService({ paths, clock: new ManualClock(), logger: silentLogger, events: new AppEvents(), appConfig: new AppConfigStore(paths.appConfig), env: { HOME: home(), [variable]: dirs } }, { pool, workerThresholdBytes: 1 });
  service.start();
  return service;
}

async function ours(service: UsageService, agent = 'opencode'): Promise<Array<{ date: string; input: number }>> {
  await service.refresh();
  return (await service.daily({ tz: 'UTC', agent })).map((d) => ({ date: d.date, input: d.inputTokens }));
}

async function theirs(dirs: string, agent = 'opencode', variable = 'OPENCODE_DATA_DIR'): Promise<Array<{ date: string; input: number }>> {
  return (await ccusageDaily<TheirDay>(agent, 'UTC', home(), { [variable]: dirs })).map((d) => ({ date: d.date, input: d.inputTokens }));
}

describe('OpenCode copies of one message, against ccusage 20.0.24', () => {
  it('keeps the copy ccusage keeps, in every order of the roots (read in this thread and in scan threads)', async () => {
    for (const [n, order] of orders.entries()) {
      const dirs = order.map((i) => roots[i]).join(',');
      const expected = await theirs(dirs);
      expect(expected).toHaveLength(7);
      for (const pool of [null, new ScanPool(2)]) {
        const service = serviceFor(`config-${n}-${pool === null ? 'inline' : 'pool'}`, dirs, pool);
        try {
          expect(await ours(service), `roots ${dirs}`).toEqual(expected);
        } finally {
          await service.stop();
        }
      }
    }
  }, 120_000);

  it('reads again, after a restart from its disk cache, the files whose root moved in the list', async () => {
    const first = orders[0]!.map((i) => roots[i]).join(',');
    const moved = orders[5]!.map((i) => roots[i]).join(',');
    let service = serviceFor('config-moved', first, null);
    try {
      expect(await ours(service)).toEqual(await theirs(first));
    } finally {
      await service.stop();
    }
    service = serviceFor('config-moved', moved, null);
    try {
      expect(await ours(service)).toEqual(await theirs(moved));
    } finally {
      await service.stop();
    }
  }, 60_000);
});

describe('Hermes sessions in several homes, against ccusage 20.0.24', () => {
  it('keeps the first home\'s row, in every order of the homes', async () => {
    for (const [n, order] of orders.entries()) {
      const dirs = order.map((i) => homes[i]).join(',');
      const expected = await theirs(dirs, 'hermes', 'HERMES_HOME');
      expect(expected).toHaveLength(4);
      const service = serviceFor(`hermes-${n}`, dirs, null, 'HERMES_HOME');
      try {
        expect(await ours(service, 'hermes'), `homes ${dirs}`).toEqual(expected);
      } finally {
        await service.stop();
      }
    }
  }, 60_000);
});

describe('Droid, Codebuff and Kilo requests in several folders, against ccusage 20.0.24', () => {
  const cases = [
    { agent: 'droid', variable: 'DROID_SESSIONS_DIR', dirs: () => droidDirs, days: 3 },
    { agent: 'codebuff', variable: 'CODEBUFF_DATA_DIR', dirs: () => codebuffDirs, days: 2 },
    { agent: 'kilo', variable: 'KILO_DATA_DIR', dirs: () => kiloDirs, days: 3 },
  ];
  for (const { agent, variable, dirs, days } of cases) {
    it(`${agent}: keeps the copy ccusage keeps, in every order of the folders`, async () => {
      const all = dirs();
      const permutations = all.length === 3 ? orders : [[0, 1], [1, 0]];
      for (const [n, order] of permutations.entries()) {
        const list = order.map((i) => all[i]).join(',');
        const expected = await theirs(list, agent, variable);
        expect(expected).toHaveLength(days);
        const service = serviceFor(`${agent}-${n}`, list, null, variable);
        try {
          expect(await ours(service, agent), `${variable}=${list}`).toEqual(expected);
        } finally {
          await service.stop();
        }
      }
    }, 60_000);
  }
});
