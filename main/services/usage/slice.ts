import type { UsageRecord } from './types.js';
import type { ZoneCalendar } from './zone-calendar.js';

/** Inclusive local day numbers; null = open. */
export interface DayWindow {
  since: number | null;
  until: number | null;
}

/** The kept requests inside a window with their local day: every aggregate is built from one. */
export interface UsageSlice {
  records: UsageRecord[];
  days: number[];
  calendar: ZoneCalendar;
}

/** Filters first (decisions §5: every aggregate, sessions included, sees only the window). */
export function sliceByWindow(records: readonly UsageRecord[], calendar: ZoneCalendar, window: DayWindow): UsageSlice {
  const since = window.since ?? -Infinity;
  const until = window.until ?? Infinity;
  const kept: UsageRecord[] = [];
  const days: number[] = [];
  for (const r of records) {
    const day = calendar.dayOf(r.timestamp);
    if (day < since || day > until) continue;
    kept.push(r);
    days.push(day);
  }
  return { records: kept, days, calendar };
}
