import { describe, expect, it } from 'vitest';
import { THRESHOLDS, detectAnomalies } from '../../../../main/services/usage/anomalies.js';
import type { DailyEntry } from '../../../../main/services/usage/daily.js';

const day = (date: string, d: Partial<DailyEntry>): DailyEntry => ({
  date,
  inputTokens: 0,
  outputTokens: 0,
  cacheReadTokens: 0,
  cacheWriteTokens: 0,
  cost: 0,
  modelsUsed: [],
  agents: [],
  agentBreakdown: {},
  modelBreakdown: {},
  ...d,
});

describe('detectAnomalies', () => {
  it('flags each rule of spec 2.7 with its value and threshold, newest first', () => {
    const found = detectAnomalies([
      day('2025-11-01', { cost: 1, inputTokens: 10_000_001, outputTokens: 1_000_000 }),
      day('2025-11-02', { cost: 1, inputTokens: 5_000_000, outputTokens: 10_000 }),
      day('2025-11-03', { cost: 1, cacheReadTokens: 1_000_000_001, outputTokens: 1 }),
      day('2025-11-04', { cost: 10, inputTokens: 100, outputTokens: 1 }),
    ]);
    expect(found.map(({ message: _m, ...a }) => a)).toEqual([
      { type: 'cost_spike', date: '2025-11-04', value: 10, threshold: 6.5 },
      { type: 'high_cache_read', date: '2025-11-03', value: 1_000_000_001, threshold: 1_000_000_000 },
      { type: 'high_io_ratio', date: '2025-11-02', value: 500, threshold: 100 },
      { type: 'high_input', date: '2025-11-01', value: 10_000_001, threshold: 10_000_000 },
    ]);
    expect(found[0]!.message).toBe('Cost on 2025-11-04 was $10.00, more than 2x the daily average of $3.25');
  });

  it('stays quiet at the thresholds themselves and on days without output', () => {
    expect(
      detectAnomalies([
        day('2025-11-01', { cost: 1, inputTokens: THRESHOLDS.highInput, outputTokens: THRESHOLDS.highInput / 100 }),
        day('2025-11-02', { cost: 3, cacheReadTokens: THRESHOLDS.highCacheRead, inputTokens: 5000 }),
      ]),
    ).toEqual([]);
    expect(detectAnomalies([])).toEqual([]);
  });
});
