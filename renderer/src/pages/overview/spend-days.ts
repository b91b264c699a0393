import type { DailyEntry } from '../../api-types.js';

export interface SparkPoint {
  day: string;
  cost: number;
}

/** Every day of the range, idle days as zero, so the line's x axis is time. */
export function fillDays(daily: Array<Pick<DailyEntry, 'date' | 'cost'>>, from: string, to: string): SparkPoint[] {
  const byDay = new Map(daily.map((d) => [d.date, d.cost]));
  const out: SparkPoint[] = [];
  for (let d = new Date(`${from}T12:00:00Z`); d.toISOString().slice(0, 10) <= to; d.setUTCDate(d.getUTCDate() + 1)) {
    const day = d.toISOString().slice(0, 10);
    out.push({ day, cost: byDay.get(day) ?? 0 });
  }
  return out;
}
