import { describe, expect, it } from 'vitest';
import { parseRelativeDay, relativeDayOf, todayIn, understoodLine, type RelativeDay } from '../../../main/cli/relative-date.js';
import { parseCompactDate } from '../../../main/services/usage/zone-calendar.js';

const day = (compact: string) => parseCompactDate(compact)!;
const today = day('20261127');

describe('relative days for --since/--until', () => {
  const rows: Array<[string, string | null]> = [
    ['today', '20261127'],
    ['TODAY', '20261127'],
    ['yesterday', '20261126'],
    ['1d', '20261127'],
    ['7d', '20261121'],
    ['30d', '20261029'],
    ['1w', '20261121'],
    ['4w', '20261031'],
    ['3660d', '20161120'],
    ['0d', null],
    ['0w', null],
    ['3661d', null],
    ['523w', null],
    ['7', null],
    ['d7', null],
    ['-7d', null],
    ['7 d', null],
    ['1m', null],
    ['7h', null],
    ['tomorrow', null],
    ['', null],
  ];

  it.each(rows)('%j names %s when today is 2026-11-27', (text, expected) => {
    const rel = parseRelativeDay(text);
    if (expected === null) expect(rel).toBeNull();
    else expect(relativeDayOf(rel as RelativeDay, today)).toBe(day(expected));
  });

  it('counts today in the given zone: 23:30 UTC is already tomorrow in Tokyo', () => {
    const now = Date.UTC(2026, 1, 9, 23, 30);
    expect(todayIn('UTC', now)).toBe(day('20260209'));
    expect(todayIn('Asia/Tokyo', now)).toBe(day('20260210'));
    expect(todayIn('America/Los_Angeles', Date.UTC(2026, 1, 10, 7, 59))).toBe(day('20260209'));
  });

  it('says what it understood, with the day, the words given and the zone', () => {
    expect(understoodLine('since', day('20261121'), '7d', 'Europe/Paris')).toBe('since 2026-11-21 (7d, Europe/Paris)');
    expect(understoodLine('until', day('20261126'), 'yesterday', 'UTC')).toBe('until 2026-11-26 (yesterday, UTC)');
  });
});
