import { describe, expect, it } from 'vitest';
import { ZoneCalendar, dayLabel, hourLabel, isValidTimeZone, parseCompactDate } from '../../../../main/services/usage/zone-calendar.js';

const localDay = (zone: string, iso: string) => dayLabel(new ZoneCalendar(zone).dayOf(Date.parse(iso)));
const localHour = (zone: string, iso: string) => hourLabel(new ZoneCalendar(zone).hourOf(Date.parse(iso)));

describe('ZoneCalendar', () => {
  it.each([
    // a request late in the UTC evening is the previous... or the next local day
    ['UTC', '2025-11-03T05:30:00Z', '2025-11-03'],
    ['America/Los_Angeles', '2025-11-03T05:30:00Z', '2025-11-02'],
    ['Asia/Tokyo', '2025-11-03T15:30:00Z', '2025-11-04'],
    ['Asia/Kathmandu', '2025-11-03T18:14:59Z', '2025-11-03'],
    ['Asia/Kathmandu', '2025-11-03T18:15:00Z', '2025-11-04'],
  ])('%s: %s falls on %s', (zone, iso, day) => {
    expect(localDay(zone, iso)).toBe(day);
  });

  it.each([
    // spring forward in Los Angeles: 01:59 PST is followed by 03:00 PDT
    ['2025-03-09T09:59:59Z', '2025-03-09 01:00'],
    ['2025-03-09T10:00:00Z', '2025-03-09 03:00'],
    // fall back: 01:xx happens twice, both land in one slot
    ['2025-11-02T08:30:00Z', '2025-11-02 01:00'],
    ['2025-11-02T09:30:00Z', '2025-11-02 01:00'],
    ['2025-11-02T10:30:00Z', '2025-11-02 02:00'],
  ])('America/Los_Angeles across DST: %s is %s local', (iso, hour) => {
    expect(localHour('America/Los_Angeles', iso)).toBe(hour);
  });

  it('stays exact when a transition falls inside a UTC hour (Lord Howe moves by 30 minutes at 15:30 UTC)', () => {
    const cal = new ZoneCalendar('Australia/Lord_Howe');
    const before = Date.parse('2025-10-04T15:10:00Z'); // +10:30 → 01:40
    const after = Date.parse('2025-10-04T15:40:00Z'); // +11:00 → 02:40
    expect(cal.offsetAt(before)).toBe(10.5 * 3_600_000);
    expect(cal.offsetAt(after)).toBe(11 * 3_600_000);
    expect(hourLabel(cal.hourOf(before))).toBe('2025-10-05 01:00');
    expect(hourLabel(cal.hourOf(after))).toBe('2025-10-05 02:00');
  });

  it('agrees with Intl for every hour of a DST year', () => {
    const zone = 'Europe/Berlin';
    const cal = new ZoneCalendar(zone);
    const fmt = new Intl.DateTimeFormat('sv-SE', { timeZone: zone, year: 'numeric', month: '2-digit', day: '2-digit' });
    for (let ms = Date.UTC(2025, 0, 1); ms < Date.UTC(2026, 0, 1); ms += 3_600_000 - 1_234) {
      expect(dayLabel(cal.dayOf(ms))).toBe(fmt.format(ms));
    }
  });

  it('validates zone names through Intl', () => {
    expect(isValidTimeZone('Europe/Paris')).toBe(true);
    expect(isValidTimeZone('UTC')).toBe(true);
    expect(isValidTimeZone('Mars/Olympus')).toBe(false);
    expect(isValidTimeZone('')).toBe(false);
    expect(isValidTimeZone('x'.repeat(100))).toBe(false);
  });
});

describe('parseCompactDate', () => {
  it.each([
    ['20251103', '2025-11-03'],
    ['20240229', '2024-02-29'],
    ['19700101', '1970-01-01'],
  ])('%s', (text, label) => {
    expect(dayLabel(parseCompactDate(text)!)).toBe(label);
  });

  it.each(['20250230', '20230229', '20251301', '20251100', '2025113', '2025-11-03', '202511030', 'abcdefgh', ''])('rejects %j', (text) => {
    expect(parseCompactDate(text)).toBeNull();
  });
});
