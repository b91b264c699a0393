import { describe, expect, it } from 'vitest';
import { dailyEntries, monthlyEntries } from '../../../../main/services/usage/daily.js';
import { hourlyEntries } from '../../../../main/services/usage/hourly.js';
import { modelEntries } from '../../../../main/services/usage/models.js';
import { Pricing } from '../../../../main/services/usage/pricing.js';
import { sessionEntries } from '../../../../main/services/usage/sessions.js';
import { sliceByWindow } from '../../../../main/services/usage/slice.js';
import { summarize } from '../../../../main/services/usage/summary.js';
import { ZoneCalendar, parseCompactDate } from '../../../../main/services/usage/zone-calendar.js';
import { usageRecord } from '../../../fixtures/usage/lines.js';

const SONNET = 'claude-sonnet-4-5-20250929';
const OPUS = 'claude-opus-4-1-20250805';

// Costs are given, not priced, so every figure below can be checked by hand.
const records = [
  usageRecord({ ts: '2025-11-03T10:00:00Z', model: SONNET, inputTokens: 100, outputTokens: 50, cacheWrite5mTokens: 1000, cacheReadTokens: 2000, cost: 1.5, sessionId: 's1', version: '2.0.40' }),
  usageRecord({ ts: '2025-11-03T23:30:00Z', model: OPUS, inputTokens: 10, outputTokens: 200, cacheReadTokens: 500, cost: 3, sessionId: 's2', projectPath: '/w/two' }),
  usageRecord({ ts: '2025-11-04T02:00:00Z', model: SONNET, inputTokens: 1, outputTokens: 1, cacheWrite1hTokens: 400, cost: 0.25, sessionId: 's1', version: '2.0.41' }),
  usageRecord({ ts: '2025-11-04T03:00:00Z', model: 'mystery-model', inputTokens: 40, cost: 0, sessionId: 's3', projectPath: null, file: '/l/projects/-w-three/s3.jsonl' }),
  usageRecord({ ts: '2025-12-01T00:30:00Z', model: '<synthetic>', sessionId: 's2', projectPath: '/w/two' }),
];

const slice = (zone: string, since: string | null = null, until: string | null = null) =>
  sliceByWindow(records, new ZoneCalendar(zone), {
    since: since === null ? null : parseCompactDate(since),
    until: until === null ? null : parseCompactDate(until),
  });

describe('daily and monthly', () => {
  it('groups by UTC day with per-model breakdowns; a zero-token day still has a row', () => {
    expect(dailyEntries(slice('UTC'))).toEqual([
      {
        date: '2025-11-03',
        inputTokens: 110,
        outputTokens: 250,
        cacheReadTokens: 2500,
        cacheWriteTokens: 1000,
        cost: 4.5,
        modelsUsed: [OPUS, SONNET],
        modelBreakdown: { [OPUS]: { inputTokens: 10, outputTokens: 200, cost: 3 }, [SONNET]: { inputTokens: 100, outputTokens: 50, cost: 1.5 } },
        agents: ['claude'],
        agentBreakdown: { claude: { inputTokens: 110, outputTokens: 250, cacheReadTokens: 2500, cacheWriteTokens: 1000, totalTokens: 3860, cost: 4.5 } },
      },
      {
        date: '2025-11-04',
        inputTokens: 41,
        outputTokens: 1,
        cacheReadTokens: 0,
        cacheWriteTokens: 400,
        cost: 0.25,
        modelsUsed: [SONNET, 'mystery-model'],
        modelBreakdown: { [SONNET]: { inputTokens: 1, outputTokens: 1, cost: 0.25 }, 'mystery-model': { inputTokens: 40, outputTokens: 0, cost: 0 } },
        agents: ['claude'],
        agentBreakdown: { claude: { inputTokens: 41, outputTokens: 1, cacheReadTokens: 0, cacheWriteTokens: 400, totalTokens: 442, cost: 0.25 } },
      },
      { date: '2025-12-01', inputTokens: 0, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0, cost: 0, modelsUsed: [], modelBreakdown: {}, agents: ['claude'], agentBreakdown: { claude: { inputTokens: 0, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0, totalTokens: 0, cost: 0 } } },
    ]);
  });

  it('moves requests across midnight in New York (UTC-5)', () => {
    const daily = dailyEntries(slice('America/New_York'));
    expect(daily.map((d) => [d.date, d.inputTokens, d.cost])).toEqual([
      ['2025-11-03', 151, 4.75],
      ['2025-11-30', 0, 0],
    ]);
    expect(monthlyEntries(daily)).toEqual([
      { month: '2025-11', inputTokens: 151, outputTokens: 251, cacheReadTokens: 2500, cacheWriteTokens: 1400, cost: 4.75, agents: ['claude'], agentBreakdown: { claude: { inputTokens: 151, outputTokens: 251, cacheReadTokens: 2500, cacheWriteTokens: 1400, totalTokens: 4302, cost: 4.75 } } },
    ]);
  });

  it('filters by the local-day window before aggregating', () => {
    expect(dailyEntries(slice('UTC', '20251104', '20251130')).map((d) => d.date)).toEqual(['2025-11-04']);
    expect(dailyEntries(slice('UTC', '20251201')).map((d) => d.date)).toEqual(['2025-12-01']);
    expect(dailyEntries(slice('UTC', null, '20251103')).map((d) => d.date)).toEqual(['2025-11-03']);
  });
});

describe('summary', () => {
  it('sums, averages over days with data, and lists unpriced models', () => {
    expect(summarize(dailyEntries(slice('UTC')), new Pricing())).toEqual({
      totalTokens: 151 + 251 + 2500 + 1400,
      totalCost: 4.75,
      inputTokens: 151,
      outputTokens: 251,
      cacheReadTokens: 2500,
      cacheWriteTokens: 1400,
      dailyAverage: { tokens: Math.round(4302 / 3), cost: 4.75 / 3 },
      dateRange: { from: '2025-11-03', to: '2025-12-01' },
      modelsUsed: [OPUS, SONNET, 'mystery-model'],
      unpricedModels: ['mystery-model'],
      agents: ['claude'],
      agentBreakdown: { claude: { inputTokens: 151, outputTokens: 251, cacheReadTokens: 2500, cacheWriteTokens: 1400, totalTokens: 4302, cost: 4.75 } },
    });
  });

  it('is all zeros with an open date range when the window is empty', () => {
    expect(summarize(dailyEntries(slice('UTC', '20300101')), new Pricing())).toMatchObject({
      totalTokens: 0,
      totalCost: 0,
      dailyAverage: { tokens: 0, cost: 0 },
      dateRange: { from: null, to: null },
      modelsUsed: [],
      unpricedModels: [],
    });
  });
});

describe('models', () => {
  it('sorts by cost, rounds percentage and ioRatio to two decimals, null ratio without output', () => {
    expect(modelEntries(slice('UTC'))).toEqual({
      totalCost: 4.75,
      models: [
        { model: OPUS, inputTokens: 10, outputTokens: 200, cacheReadTokens: 500, cacheWriteTokens: 0, cost: 3, percentage: 63.16, ioRatio: 0.05 },
        { model: SONNET, inputTokens: 101, outputTokens: 51, cacheReadTokens: 2000, cacheWriteTokens: 1400, cost: 1.75, percentage: 36.84, ioRatio: 1.98 },
        { model: 'mystery-model', inputTokens: 40, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0, cost: 0, percentage: 0, ioRatio: null },
      ],
    });
  });
});

describe('sessions', () => {
  it('lists sessions newest first with the newest version and the cwd as project', () => {
    expect(sessionEntries(slice('UTC'))).toEqual([
      { sessionId: 's2', projectPath: '/w/two', lastActivity: '2025-12-01T00:30:00.000Z', inputTokens: 10, outputTokens: 200, cacheReadTokens: 500, cacheWriteTokens: 0, totalTokens: 710, cost: 3, modelsUsed: [OPUS], version: '2.0.40', agent: 'claude' },
      { sessionId: 's3', projectPath: '-w-three', lastActivity: '2025-11-04T03:00:00.000Z', inputTokens: 40, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0, totalTokens: 40, cost: 0, modelsUsed: ['mystery-model'], version: '2.0.40', agent: 'claude' },
      { sessionId: 's1', projectPath: '/home/dev/app', lastActivity: '2025-11-04T02:00:00.000Z', inputTokens: 101, outputTokens: 51, cacheReadTokens: 2000, cacheWriteTokens: 1400, totalTokens: 3552, cost: 1.75, modelsUsed: [SONNET], version: '2.0.41', agent: 'claude' },
    ]);
  });

  it('only sees the requests inside the window', () => {
    expect(sessionEntries(slice('UTC', '20251104', '20251104')).map((s) => [s.sessionId, s.inputTokens])).toEqual([
      ['s3', 40],
      ['s1', 1],
    ]);
  });
});

describe('hourly', () => {
  it('fills every hour of the range, quiet ones with zeros', () => {
    const cal = new ZoneCalendar('UTC');
    const first = parseCompactDate('20251103')! * 24;
    const hours = hourlyEntries(records, cal, first, first + 23);
    expect(hours).toHaveLength(24);
    expect(hours[0]).toEqual({ hour: '2025-11-03 00:00', inputTokens: 0, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0, cost: 0, modelsUsed: [], agents: [], agentBreakdown: {} });
    expect(hours[10]).toMatchObject({ hour: '2025-11-03 10:00', inputTokens: 100, cacheWriteTokens: 1000, cost: 1.5, modelsUsed: [SONNET] });
    expect(hours[23]).toMatchObject({ hour: '2025-11-03 23:00', outputTokens: 200, modelsUsed: [OPUS] });
  });

  it('labels hours in the local zone', () => {
    const cal = new ZoneCalendar('America/New_York');
    const first = parseCompactDate('20251103')! * 24;
    const hours = hourlyEntries(records, cal, first, first + 23);
    expect(hours.filter((h) => h.inputTokens > 0).map((h) => [h.hour, h.inputTokens])).toEqual([
      ['2025-11-03 05:00', 100],
      ['2025-11-03 18:00', 10],
      ['2025-11-03 21:00', 1],
      ['2025-11-03 22:00', 40],
    ]);
  });
});
