import { dayLabel, isValidTimeZone, systemTimeZone, ZoneCalendar } from '../services/usage/zone-calendar.js';

/**
 * Relative days for `switchboard usage --since/--until` (issue 28.6), beside `YYYYMMDD`:
 * `today`, `yesterday`, `Nd` (the last N days, today included: `7d` starts 6 days ago) and `Nw`
 * (the last N weeks = 7N days, today included). Each names one day of the usage time zone.
 * Months are not offered: `1m` reads as minutes to some and as a calendar month to others.
 */
export type RelativeDay = { unit: 'today' | 'yesterday' } | { unit: 'd' | 'w'; count: number };

/** Ten years of days: a larger count is a typo, not a question. */
const MAX_DAYS = 3_660;

export const DAY_FORMS = 'YYYYMMDD, today, yesterday, Nd (last N days) or Nw (last N weeks)';

/** The relative day a text names, or null when it names none (including `0d` and counts over ten years). */
export function parseRelativeDay(text: string): RelativeDay | null {
  const word = text.trim().toLowerCase();
  if (word === 'today' || word === 'yesterday') return { unit: word };
  const m = /^(\d{1,5})([dw])$/.exec(word);
  if (!m) return null;
  const count = Number(m[1]);
  const unit = m[2] as 'd' | 'w';
  const days = unit === 'd' ? count : count * 7;
  return count >= 1 && days <= MAX_DAYS ? { unit, count } : null;
}

/** The day number the expression names, `today` being the day number of today in the usage zone. */
export function relativeDayOf(rel: RelativeDay, today: number): number {
  switch (rel.unit) {
    case 'today':
      return today;
    case 'yesterday':
      return today - 1;
    case 'd':
      return today - (rel.count - 1);
    case 'w':
      return today - (rel.count * 7 - 1);
  }
}

/** Today's day number in `zone` at `nowMs`. */
export function todayIn(zone: string, nowMs: number): number {
  return new ZoneCalendar(zone).dayOf(nowMs);
}

/** What the terminal says it understood, on stderr: `since 2026-11-21 (7d, Europe/Paris)`. */
export function understoodLine(option: 'since' | 'until', day: number, text: string, zone: string): string {
  return `${option} ${dayLabel(day)} (${text}, ${zone})`;
}

/**
 * The zone days are counted in when `--tz` is not given: `usage.timezone` from config.yaml,
 * else the system zone (as the usage service does, so the report and the line agree).
 */
export async function defaultUsageZone(appConfigFile: string): Promise<string> {
  const { AppConfigStore } = await import('../services/app-config/store.js');
  const configured = await new AppConfigStore(appConfigFile).read().then(
    (s) => s.config.usage.timezone.trim(),
    () => '',
  );
  return configured !== '' && isValidTimeZone(configured) ? configured : systemTimeZone();
}
