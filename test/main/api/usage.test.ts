import fs from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../../main/infra/clock.js';
import { startTestApp, type TestApp } from '../../helpers/app.js';
import { assistantLine } from '../../fixtures/usage/lines.js';

const SONNET = 'claude-sonnet-4-5-20250929';
const clock = new ManualClock(Date.UTC(2026, 0, 10, 12, 30));
let app: TestApp;

// Two sessions, two UTC days; one request at 23:30 UTC lands on the next day in Tokyo.
const transcript = [
  assistantLine({ msg: 'a', req: 'ra', ts: '2026-01-08T09:00:00.000Z', input: 1000, output: 100, cacheWrite: 50, split: [20, 30], cacheRead: 4000, session: 's1' }),
  assistantLine({ msg: 'b', req: 'rb', ts: '2026-01-09T23:30:00.000Z', input: 10, output: 10, model: 'mystery-1', session: 's2', cwd: '/w/b' }),
  assistantLine({ msg: 'b', req: 'rb', ts: '2026-01-09T23:30:00.000Z', input: 10, output: 2, model: 'mystery-1', session: 's2', cwd: '/w/b' }),
  '{"broken":',
];

beforeAll(async () => {
  app = await startTestApp({
    clock,
    before: async ({ home, agentDir }) => {
      await fs.mkdir(path.join(agentDir, 'projects', 'p'), { recursive: true });
      await fs.writeFile(path.join(agentDir, 'projects', 'p', 's.jsonl'), transcript.join('\n') + '\n');
      await fs.mkdir(home, { recursive: true });
      await fs.writeFile(path.join(home, 'config.yaml'), 'usage:\n  timezone: UTC\n');
    },
  });
});
afterAll(() => app?.stop());

const get = (p: string) => app.json('GET', p);

describe('GET /api/usage/* answers', () => {
  it('status is all null before anything is cached', async () => {
    expect(await get('/api/usage/status')).toEqual({
      status: 200,
      body: { cached: false, lastFetch: null, lastFetchHuman: null, cacheAge: null, cacheAgeHuman: null, files: null, malformedLines: null, oversizedLines: null, scanning: false, progress: null, lastError: null, transcriptsDir: path.join(app.agentDir, 'projects') },
    });
  });

  it('summary', async () => {
    const sonnetCost = (1000 * 3 + 100 * 15 + 20 * 3.75 + 30 * 6 + 4000 * 0.3) / 1e6;
    const { status, body } = await get('/api/usage/summary');
    expect(status).toBe(200);
    expect(body).toEqual({
      totalTokens: 1000 + 100 + 50 + 4000 + 20,
      totalCost: expect.closeTo(sonnetCost, 12),
      inputTokens: 1010,
      outputTokens: 110,
      cacheReadTokens: 4000,
      cacheWriteTokens: 50,
      dailyAverage: { tokens: Math.round(5170 / 2), cost: expect.closeTo(sonnetCost / 2, 12) },
      dateRange: { from: '2026-01-08', to: '2026-01-09' },
      modelsUsed: [SONNET, 'mystery-1'],
      unpricedModels: ['mystery-1'],
      agents: ['claude'],
    });
  });

  it('daily, in the configured zone and in the one asked for', async () => {
    const utc = await get('/api/usage/daily');
    expect(utc.status).toBe(200);
    expect(utc.body.daily.map((d: any) => [d.date, d.inputTokens, d.outputTokens, d.cacheWriteTokens, d.modelsUsed])).toEqual([
      ['2026-01-08', 1000, 100, 50, [SONNET]],
      ['2026-01-09', 10, 10, 0, ['mystery-1']],
    ]);
    expect(utc.body.daily[1].modelBreakdown).toEqual({ 'mystery-1': { inputTokens: 10, outputTokens: 10, cost: 0 } });
    const tokyo = await get('/api/usage/daily?tz=Asia/Tokyo');
    expect(tokyo.body.daily.map((d: any) => d.date)).toEqual(['2026-01-08', '2026-01-10']);
  });

  it('hourly: the last 24 hours by default, gap-filled; with since/until every hour of those days', async () => {
    const { status, body } = await get('/api/usage/hourly');
    expect(status).toBe(200);
    expect(body.hourly).toHaveLength(24);
    expect(body.hourly[0].hour).toBe('2026-01-09 13:00');
    expect(body.hourly[23].hour).toBe('2026-01-10 12:00');
    expect(body.hourly.filter((h: any) => h.inputTokens > 0).map((h: any) => h.hour)).toEqual(['2026-01-09 23:00']);
    const days = await get('/api/usage/hourly?since=20260108&until=20260109');
    expect(days.body.hourly).toHaveLength(48);
    expect(days.body.hourly[9]).toMatchObject({ hour: '2026-01-08 09:00', inputTokens: 1000, modelsUsed: [SONNET] });
    const max = await get('/api/usage/hourly?since=20260101&until=20260131');
    expect(max.body.hourly).toHaveLength(31 * 24);
  });

  it('monthly', async () => {
    expect(await get('/api/usage/monthly')).toMatchObject({
      status: 200,
      body: { monthly: [{ month: '2026-01', inputTokens: 1010, outputTokens: 110, cacheReadTokens: 4000, cacheWriteTokens: 50 }] },
    });
  });

  it('models', async () => {
    const { status, body } = await get('/api/usage/models');
    expect(status).toBe(200);
    expect(body.models.map((m: any) => [m.model, m.percentage, m.ioRatio])).toEqual([
      [SONNET, 100, 10],
      ['mystery-1', 0, 1],
    ]);
    expect(body.totalCost).toBeCloseTo(body.models[0].cost, 12);
  });

  it('insights', async () => {
    expect(await get('/api/usage/insights')).toEqual({
      status: 200,
      body: {
        anomalies: [],
        thresholds: { highInput: 10_000_000, highIoRatio: 100, costSpikeMultiplier: 2, highCacheRead: 1_000_000_000 },
        baseline: { averageDailyCost: expect.any(Number), days: 2, since: '2026-01-08', until: '2026-01-09' },
      },
    });
  });

  it('sessions, newest first and paged', async () => {
    const all = await get('/api/usage/sessions');
    expect(all.status).toBe(200);
    expect(all.body).toMatchObject({ total: 2, limit: 50, offset: 0 });
    expect(all.body.sessions.map((s: any) => [s.sessionId, s.projectPath, s.lastActivity, s.version])).toEqual([
      ['s2', '/w/b', '2026-01-09T23:30:00.000Z', '2.0.40'],
      ['s1', '/home/dev/app', '2026-01-08T09:00:00.000Z', '2.0.40'],
    ]);
    const page = await get('/api/usage/sessions?limit=1&offset=1');
    expect(page.body).toMatchObject({ total: 2, limit: 1, offset: 1, sessions: [{ sessionId: 's1' }] });
    const window = await get('/api/usage/sessions?since=20260109');
    expect(window.body.sessions.map((s: any) => s.sessionId)).toEqual(['s2']);
  });

  it('status after a scan', async () => {
    clock.advance(5_000);
    const { body } = await get('/api/usage/status');
    expect(body).toMatchObject({ cached: true, cacheAge: 5_000, cacheAgeHuman: '5 seconds', files: 1, malformedLines: 1 });
    expect(body.lastFetchHuman).toBe(new Date(body.lastFetch).toISOString());
  });

  it('refresh rescans and answers the spec shape', async () => {
    clock.advance(1_000);
    expect(await app.json('POST', '/api/usage/refresh')).toEqual({
      status: 200,
      body: { success: true, message: 'Usage data refreshed', timestamp: clock.now() },
    });
  });
});

describe('query validation (decisions §5)', () => {
  const filtered = ['summary', 'daily', 'hourly', 'models', 'insights', 'sessions', 'monthly'];

  for (const endpoint of filtered) {
    describe(`/api/usage/${endpoint}`, () => {
      it.each(['since=2026-01-08', 'since=2026018', 'since=20260230', 'since=abcdefgh', 'until=20261301', 'until=', 'since=20260101&since=20260102'])(
        '400 Invalid date format for %s',
        async (qs) => {
          const res = await get(`/api/usage/${endpoint}?${qs}`);
          expect(res.status).toBe(400);
          expect(res.body.error).toBe('Invalid date format. Use YYYYMMDD');
          expect(res.body.message).toMatch(/^(since|until)/);
        },
      );

      it('400 Invalid date range when since is after until', async () => {
        expect(await get(`/api/usage/${endpoint}?since=20260110&until=20260109`)).toEqual({
          status: 400,
          body: { error: 'Invalid date range', message: 'since is after until' },
        });
      });

      it.each(['tz=Mars/Olympus', 'tz=', 'tz=' + 'x'.repeat(100)])('400 Invalid timezone for %s', async (qs) => {
        const res = await get(`/api/usage/${endpoint}?${qs}`);
        expect(res.status).toBe(400);
        expect(res.body.error).toBe('Invalid timezone');
        expect(res.body.message).toMatch(/^tz/);
      });
    });
  }

  it.each(['since=20260101&until=20260201', 'since=20251201'])('hourly refuses more than 31 days: %s', async (qs) => {
    expect(await get(`/api/usage/hourly?${qs}`)).toMatchObject({ status: 400, body: { error: 'Invalid date range' } });
  });

  it.each(['limit=0', 'limit=1001', 'limit=abc', 'limit=-1', 'limit=1.5', 'limit=', 'offset=-1', 'offset=x', 'offset=1e3', 'limit=5&limit=6'])(
    'sessions: 400 Invalid pagination parameters for %s',
    async (qs) => {
      const res = await get(`/api/usage/sessions?${qs}`);
      expect(res.status).toBe(400);
      expect(res.body.error).toBe('Invalid pagination parameters');
      expect(res.body.message).toMatch(/^(limit|offset)/);
    },
  );

  it('sessions accepts the bounds', async () => {
    expect((await get('/api/usage/sessions?limit=1000&offset=0')).status).toBe(200);
    expect((await get('/api/usage/sessions?limit=1&offset=99999')).body).toMatchObject({ sessions: [], total: 2 });
  });
});

describe('failures (spec 7)', () => {
  it('503 Cache unavailable when nothing is cached and the scan fails; 500 when a refresh fails', async () => {
    const broken = await startTestApp({
      before: async ({ agentDir }) => {
        await fs.writeFile(path.join(agentDir, 'projects'), 'not a directory');
      },
    });
    try {
      const res = await broken.json('GET', '/api/usage/summary');
      expect(res.status).toBe(503);
      expect(res.body.error).toBe('Cache unavailable');
      expect(res.body.message).toContain('not a directory');
      const refresh = await broken.json('POST', '/api/usage/refresh');
      expect(refresh.status).toBe(500);
      expect(refresh.body.error).toBe('Failed to fetch usage data');
      expect(typeof refresh.body.message).toBe('string');
    } finally {
      await broken.stop();
    }
  });

  it('a missing agent dir is empty data', async () => {
    const empty = await startTestApp({
      before: async ({ agentDir }) => {
        await fs.rm(agentDir, { recursive: true });
      },
    });
    try {
      expect(await empty.json('GET', '/api/usage/daily')).toEqual({ status: 200, body: { daily: [] } });
      expect((await empty.json('POST', '/api/usage/refresh')).status).toBe(200);
    } finally {
      await empty.stop();
    }
  });
});
