import { describe, expect, it } from 'vitest';
import { daysBefore, splitRecent } from '../../../../../renderer/src/pages/overview/recent-days.js';

describe('daysBefore', () => {
  it.each([
    ['2026-03-02', 6, '2026-02-24'],
    ['2026-01-03', 7, '2025-12-27'],
    ['2024-03-01', 1, '2024-02-29'],
    ['2026-11-27', 0, '2026-11-27'],
  ])('%s minus %i days is %s', (day, n, out) => expect(daysBefore(day, n)).toBe(out));
});

describe('splitRecent (Overview alerts: the last 7 days, today included)', () => {
  const at = (date: string) => ({ date, id: date });
  it('keeps the last 7 days as recent and the rest as older, in order', () => {
    const items = [at('2026-11-27'), at('2026-11-21'), at('2026-11-20'), at('2026-10-15'), at('2026-10-09')];
    const { recent, older } = splitRecent(items, '2026-11-27');
    expect(recent.map((a) => a.date)).toEqual(['2026-11-27', '2026-11-21']);
    expect(older.map((a) => a.date)).toEqual(['2026-11-20', '2026-10-15', '2026-10-09']);
  });

  it('anomalies of 3 to 7 weeks ago are all older', () => {
    const items = [21, 30, 49].map((n) => at(daysBefore('2026-11-27', n)));
    expect(splitRecent(items, '2026-11-27')).toEqual({ recent: [], older: items });
  });

  it('a date after today counts as recent, and an empty list splits into two empty lists', () => {
    expect(splitRecent([at('2026-11-28')], '2026-11-27').recent).toHaveLength(1);
    expect(splitRecent([], '2026-11-27')).toEqual({ recent: [], older: [] });
  });
});
