import fs from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../../main/infra/clock.js';
import { startTestApp, type TestApp } from '../../helpers/app.js';
import { assistantLine } from '../../fixtures/usage/lines.js';

// Issue 20: projects, session sort and filters, cost modes, the incremental refresh.
const OPUS = 'claude-opus-4-6';
const SONNET = 'claude-sonnet-4-5-20250929';
const clock = new ManualClock(Date.UTC(2026, 0, 10, 12, 30));
let app: TestApp;
let transcript: string;

// Three sessions in two projects. s1 is the newest and the cheapest; s3 the costliest (opus).
const lines = [
  assistantLine({ msg: 'a', req: 'ra', ts: '2026-01-07T09:00:00.000Z', input: 1000, output: 100, cacheRead: 5000, split: [10, 20], session: 's2', cwd: '/w/api' }),
  assistantLine({ msg: 'b', req: 'rb', ts: '2026-01-08T09:00:00.000Z', model: OPUS, input: 20_000, output: 4000, session: 's3', cwd: '/w/api' }),
  assistantLine({ msg: 'c', req: 'rc', ts: '2026-01-09T09:00:00.000Z', input: 10, output: 10, session: 's1', cwd: '/w/web', costUSD: 2 }),
  assistantLine({ msg: 'd', req: 'rd', ts: '2026-01-09T10:00:00.000Z', model: OPUS, input: 10, output: 10, session: 's1', cwd: '/w/web', speed: 'fast' }),
];
const sonnet = (input: number, output: number, write5m = 0, write1h = 0, read = 0) => (input * 3 + output * 15 + write5m * 3.75 + write1h * 6 + read * 0.3) / 1e6;
const opus = (input: number, output: number) => (input * 5 + output * 25) / 1e6;

beforeAll(async () => {
  app = await startTestApp({
    clock,
    before: async ({ home, agentDir }) => {
      await fs.mkdir(path.join(agentDir, 'projects', 'p'), { recursive: true });
      transcript = path.join(agentDir, 'projects', 'p', 's.jsonl');
      await fs.writeFile(transcript, lines.join('\n') + '\n');
      await fs.mkdir(home, { recursive: true });
      await fs.writeFile(path.join(home, 'config.yaml'), 'usage:\n  timezone: UTC\n');
    },
  });
});
afterAll(() => app?.stop());

const get = (p: string) => app.json('GET', p);
const ids = (body: any) => body.sessions.map((s: any) => s.sessionId);

describe('GET /api/usage/projects', () => {
  it('one row per cwd with tokens by kind, cost, sessions, last activity and top model, by cost', async () => {
    const { status, body } = await get('/api/usage/projects');
    expect(status).toBe(200);
    // auto: the logged $2 makes /w/web the costlier project
    expect(body.projects).toEqual([
      {
        projectPath: '/w/web',
        inputTokens: 20,
        outputTokens: 20,
        cacheReadTokens: 0,
        cacheWriteTokens: 0,
        totalTokens: 40,
        cost: expect.any(Number),
        sessions: 1,
        lastActivity: '2026-01-09T10:00:00.000Z',
        topModel: 'claude-sonnet-4-5-20250929',
        agent: 'claude',
      },
      {
        projectPath: '/w/api',
        inputTokens: 21_000,
        outputTokens: 4100,
        cacheReadTokens: 5000,
        cacheWriteTokens: 30,
        totalTokens: 30_130,
        cost: expect.any(Number),
        sessions: 2,
        lastActivity: '2026-01-08T09:00:00.000Z',
        topModel: OPUS,
        agent: 'claude',
      },
    ]);
    expect(body.projects[1].cost).toBeCloseTo(sonnet(1000, 100, 10, 20, 5000) + opus(20_000, 4000), 12);
    // auto: the logged $2 counts, and the fast opus request at 6 x list price
    expect(body.projects[0].cost).toBeCloseTo(2 + 6 * opus(10, 10), 12);
  });

  it('takes the window, the zone and the mode like the other reads', async () => {
    expect((await get('/api/usage/projects?since=20260109')).body.projects.map((p: any) => p.projectPath)).toEqual(['/w/web']);
    expect((await get('/api/usage/projects?until=20260101')).body).toEqual({ projects: [] });
    const calc = await get('/api/usage/projects?mode=calculate&tz=Asia/Tokyo');
    expect(calc.body.projects.map((p: any) => p.projectPath)).toEqual(['/w/api', '/w/web']);
    expect(calc.body.projects[1].cost).toBeCloseTo(sonnet(10, 10) + 6 * opus(10, 10), 12);
    const display = await get('/api/usage/projects?mode=display');
    expect(display.body.projects.map((p: any) => [p.projectPath, p.cost])).toEqual([
      ['/w/web', 2],
      ['/w/api', 0],
    ]);
  });

  it.each([
    ['since=2026-01-01', 'Invalid date format. Use YYYYMMDD'],
    ['since=20260110&until=20260101', 'Invalid date range'],
    ['tz=Nowhere/City', 'Invalid timezone'],
    ['mode=cheap', 'Invalid cost mode'],
  ])('400 for %s', async (qs, error) => {
    expect(await get(`/api/usage/projects?${qs}`)).toMatchObject({ status: 400, body: { error } });
  });
});

describe('GET /api/usage/sessions: sort, order, project, model', () => {
  it('keeps its default order and fields, with cache tokens added', async () => {
    const { body } = await get('/api/usage/sessions');
    expect(ids(body)).toEqual(['s1', 's3', 's2']);
    expect(body.sessions[2]).toEqual({
      sessionId: 's2',
      projectPath: '/w/api',
      lastActivity: '2026-01-07T09:00:00.000Z',
      inputTokens: 1000,
      outputTokens: 100,
      cacheReadTokens: 5000,
      cacheWriteTokens: 30,
      totalTokens: 6130,
      cost: expect.any(Number),
      modelsUsed: [SONNET],
      version: '2.0.40',
      agent: 'claude',
    });
    expect(body.sessions[0].modelsUsed).toEqual([`${OPUS}-fast`, SONNET]);
  });

  it.each([
    ['sort=cost', ['s1', 's3', 's2']],
    ['sort=cost&order=asc', ['s2', 's3', 's1']],
    ['sort=cost&mode=calculate', ['s3', 's2', 's1']],
    ['sort=tokens', ['s3', 's2', 's1']],
    ['sort=tokens&order=asc', ['s1', 's2', 's3']],
    ['sort=lastActivity&order=asc', ['s2', 's3', 's1']],
    ['order=desc', ['s1', 's3', 's2']],
    ['project=%2Fw%2Fapi', ['s3', 's2']],
    ['project=%2Fw%2Fapi&sort=tokens&order=asc', ['s2', 's3']],
    ['model=claude-opus-4-6', ['s3']],
    ['model=claude-opus-4-6-fast', ['s1']],
    ['project=%2Fnowhere', []],
    ['sort=cost&mode=display', ['s1', 's3', 's2']],
    ['sort=cost&limit=1&offset=1', ['s3']],
  ])('%s', async (qs, expected) => {
    const { status, body } = await get(`/api/usage/sessions?${qs}`);
    expect(status).toBe(200);
    expect(ids(body)).toEqual(expected);
  });

  it('total counts the filtered sessions', async () => {
    expect((await get('/api/usage/sessions?project=%2Fw%2Fapi&limit=1')).body).toMatchObject({ total: 2, limit: 1, offset: 0 });
  });

  it.each(['sort=price', 'sort=', 'order=up', 'order=', 'project=', 'model=', 'sort=cost&sort=tokens', 'model=a&model=b'])(
    '400 Invalid session filter for %s',
    async (qs) => {
      const res = await get(`/api/usage/sessions?${qs}`);
      expect(res.status).toBe(400);
      expect(res.body.error).toBe('Invalid session filter');
      expect(res.body.message).toMatch(/^(sort|order|project|model)/);
    },
  );

  it('pagination errors come before filter errors', async () => {
    expect((await get('/api/usage/sessions?limit=0&sort=price')).body.error).toBe('Invalid pagination parameters');
  });
});

describe('?mode= on every usage read', () => {
  const reads = ['summary', 'daily', 'hourly', 'monthly', 'models', 'insights', 'sessions', 'projects'];
  it.each(reads)('%s: 400 Invalid cost mode for a bad mode, naming the parameter', async (endpoint) => {
    for (const qs of ['mode=cheap', 'mode=', 'mode=AUTO', 'mode=auto&mode=display']) {
      const res = await get(`/api/usage/${endpoint}?${qs}`);
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ error: 'Invalid cost mode' });
      expect(res.body.message).toMatch(/^mode/);
    }
  });

  it('summary totals differ by mode as ccusage counts them', async () => {
    const cost = async (mode: string) => (await get(`/api/usage/summary?mode=${mode}`)).body.totalCost;
    const calc = sonnet(1000, 100, 10, 20, 5000) + opus(20_000, 4000) + sonnet(10, 10) + 6 * opus(10, 10);
    expect(await cost('calculate')).toBeCloseTo(calc, 12);
    expect(await cost('auto')).toBeCloseTo(calc - sonnet(10, 10) + 2, 12);
    expect(await cost('display')).toBe(2);
  });

  it('usage.cost_mode in config.yaml sets the default', async () => {
    const before = (await get('/api/usage/summary')).body.totalCost;
    await fs.writeFile(path.join(app.home, 'config.yaml'), 'usage:\n  timezone: UTC\n  cost_mode: display\n');
    // the setting is re-read within a few seconds
    clock.advance(6_000);
    await get('/api/usage/summary');
    let after = before;
    for (let i = 0; i < 50 && after === before; i++) {
      after = (await get('/api/usage/summary')).body.totalCost;
      if (after === before) await new Promise((r) => setTimeout(r, 20));
    }
    expect(after).toBe(2);
    await fs.writeFile(path.join(app.home, 'config.yaml'), 'usage:\n  timezone: UTC\n');
    clock.advance(6_000);
  });
});

describe('POST /api/usage/refresh', () => {
  it('reads an append at once, incrementally; full=true rescans', async () => {
    await get('/api/usage/summary');
    await fs.appendFile(transcript, assistantLine({ msg: 'z', req: 'rz', ts: '2026-01-10T09:00:00.000Z', input: 7, output: 1, session: 's9', cwd: '/w/new' }) + '\n');
    expect(await app.json('POST', '/api/usage/refresh')).toEqual({ status: 200, body: { success: true, message: 'Usage data refreshed', timestamp: clock.now() } });
    expect((await get('/api/usage/projects')).body.projects.map((p: any) => p.projectPath)).toContain('/w/new');
    expect(app.services.usage.lastScan()).toMatchObject({ filesRead: 1 });
    expect(app.services.usage.lastScan()!.bytesRead).toBeLessThan(1000);
    expect((await app.json('POST', '/api/usage/refresh?full=true')).status).toBe(200);
    expect(app.services.usage.lastScan()!.bytesRead).toBe((await fs.stat(transcript)).size);
    expect((await app.json('POST', '/api/usage/refresh?full=false')).status).toBe(200);
  });

  it.each(['full=yes', 'full=1', 'full=', 'full=true&full=false'])('400 Invalid refresh option for %s', async (qs) => {
    const res = await app.json('POST', `/api/usage/refresh?${qs}`);
    expect(res.status).toBe(400);
    expect(res.body.error).toBe('Invalid refresh option');
    expect(res.body.message).toMatch(/^full/);
  });
});

describe('GET /api/usage/status while a scan runs', () => {
  it('reports scanning and progress, and every data read waits for the first scan', async () => {
    // The in-process app reads the test knob from process.env: each file waits 0.5 s, so the scan
    // is still on its files when discovery has counted all three, however busy the machine.
    process.env.SWITCHBOARD_TEST_SCAN_DELAY_MS = '500';
    const slow = await startTestApp({
      before: async ({ agentDir }) => {
        await fs.mkdir(path.join(agentDir, 'projects', 'p'), { recursive: true });
        for (const name of ['a', 'b', 'c']) await fs.writeFile(path.join(agentDir, 'projects', 'p', `${name}.jsonl`), lines.join('\n') + '\n');
      },
    });
    try {
      const summary = slow.json('GET', '/api/usage/summary');
      let status = (await slow.json('GET', '/api/usage/status')).body;
      for (let i = 0; i < 100 && !(status.scanning && status.progress.filesTotal === 3); i++) {
        await new Promise((r) => setTimeout(r, 10));
        status = (await slow.json('GET', '/api/usage/status')).body;
      }
      expect(status).toMatchObject({ cached: false, scanning: true, progress: { filesTotal: 3, bytesTotal: 3 * (lines.join('\n').length + 1) } });
      expect(status.progress.filesDone).toBeLessThan(3);
      expect((await summary).body.inputTokens).toBeGreaterThan(0);
      expect((await slow.json('GET', '/api/usage/status')).body).toMatchObject({ cached: true, scanning: false, progress: null });
    } finally {
      delete process.env.SWITCHBOARD_TEST_SCAN_DELAY_MS;
      await slow.stop();
    }
  });
});
