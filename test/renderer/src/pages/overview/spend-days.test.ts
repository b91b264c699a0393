import { describe, expect, it } from 'vitest';
import { fillDays } from '../../../../../renderer/src/pages/overview/spend-days.js';

describe('fillDays', () => {
  it('every day of the range, idle days as zero', () => {
    expect(fillDays([{ date: '2026-02-27', cost: 1.5 }, { date: '2026-03-02', cost: 2 }], '2026-02-27', '2026-03-02')).toEqual([
      { day: '2026-02-27', cost: 1.5 },
      { day: '2026-02-28', cost: 0 },
      { day: '2026-03-01', cost: 0 },
      { day: '2026-03-02', cost: 2 },
    ]);
  });

  it('30 days make 30 points; days outside the range are ignored', () => {
    const points = fillDays([{ date: '2025-12-31', cost: 9 }], '2026-01-01', '2026-01-30');
    expect(points).toHaveLength(30);
    expect(points.every((p) => p.cost === 0)).toBe(true);
  });
});
