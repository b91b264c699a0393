import { execFileSync } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../../main/infra/clock.js';
import { startTestApp, type TestApp } from '../../helpers/app.js';

/** An OpenCode 2 store (only `session_v2` + `session_message`, as a fresh 2.x install has) over HTTP. */
const clock = new ManualClock(Date.UTC(2026, 0, 10, 12, 30));
let app: TestApp;
let logs: string;
let store: string;

beforeAll(async () => {
  logs = await fs.mkdtemp(path.join(os.tmpdir(), 'switchboard-opencode2-api-'));
  store = path.join(logs, 'opencode');
  await fs.mkdir(store);
  const data = (input: number) => JSON.stringify({ agent: 'build', model: { id: 'claude-sonnet-4-5', providerID: 'anthropic' }, content: [], tokens: { input, output: 10, reasoning: 0, cache: { read: 0, write: 0 } }, time: { created: Date.UTC(2026, 0, 8, 9) } });
  execFileSync('sqlite3', [path.join(store, 'opencode.db')], {
    input: `PRAGMA journal_mode=WAL;
CREATE TABLE session_v2 (id text PRIMARY KEY, project_id text NOT NULL, slug text NOT NULL, directory text NOT NULL, version text NOT NULL, time_created integer NOT NULL, time_updated integer NOT NULL);
CREATE TABLE session_message (id text PRIMARY KEY, session_id text NOT NULL, type text NOT NULL, seq integer NOT NULL, time_created integer NOT NULL, time_updated integer NOT NULL, data text NOT NULL);
INSERT INTO session_v2 VALUES('ses_1','p','s','/w/oc2','2.0.14',1,1);
INSERT INTO session_message VALUES('m0','ses_1','user',0,1,1,'{"text":"hi","time":{"created":1}}');
INSERT INTO session_message VALUES('m1','ses_1','assistant',1,1,1,'${data(100)}');
INSERT INTO session_message VALUES('m2','ses_1','assistant',2,1,1,'${data(200)}');
`,
    stdio: ['pipe', 'ignore', 'pipe'],
  });
  app = await startTestApp({ clock, env: { OPENCODE_DATA_DIR: store, CODEX_HOME: path.join(logs, 'none'), GEMINI_DATA_DIR: path.join(logs, 'none'), AMP_DATA_DIR: path.join(logs, 'none') } });
});
afterAll(async () => {
  await app?.stop();
  await fs.rm(logs, { recursive: true, force: true });
});

describe('GET /api/usage/agents with an OpenCode 2 store', () => {
  it('lists the store as found, with its requests, and the usage reads count them with their project', async () => {
    const agents = await app.json('GET', '/api/usage/agents');
    expect(agents.status).toBe(200);
    const opencode = (agents.body.agents as Array<Record<string, unknown>>).find((a) => a.id === 'opencode');
    expect(opencode).toMatchObject({ supported: true, found: true, files: 1, records: 2, dirs: [store], lastActivity: '2026-01-08T09:00:00.000Z' });
    const daily = await app.json('GET', '/api/usage/daily?agent=opencode&since=20260108&until=20260108');
    expect(daily.status).toBe(200);
    expect(daily.body.daily.map((d: { date: string; inputTokens: number; outputTokens: number }) => [d.date, d.inputTokens, d.outputTokens])).toEqual([['2026-01-08', 300, 20]]);
    const projects = await app.json('GET', '/api/usage/projects?agent=opencode');
    expect(JSON.stringify(projects.body)).toContain('/w/oc2');
  });
});
