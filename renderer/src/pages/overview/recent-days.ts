/** How far back an anomaly is still news for the Overview (issue 28.4); older ones live on Usage. */
export const RECENT_DAYS = 7;

/** `day` (YYYY-MM-DD) minus `n` calendar days. */
export function daysBefore(day: string, n: number): string {
  const d = new Date(`${day}T12:00:00Z`);
  d.setUTCDate(d.getUTCDate() - n);
  return d.toISOString().slice(0, 10);
}

/**
 * Splits dated items into those of the last `days` days up to `today` (today included) and the
 * older rest, keeping their order. A date after today (a clock or zone mismatch) counts as recent.
 */
export function splitRecent<T extends { date: string }>(items: readonly T[], today: string, days = RECENT_DAYS): { recent: T[]; older: T[] } {
  const from = daysBefore(today, days - 1);
  const recent: T[] = [];
  const older: T[] = [];
  for (const item of items) (item.date >= from ? recent : older).push(item);
  return { recent, older };
}
