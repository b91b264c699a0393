import { DAY_MS, HOUR_MS, daysFromCivil } from './timestamp.js';

const knownZones = new Map<string, boolean>();

/**
 * True for names Intl knows (IANA zones, `UTC`); checked before a zone is used for grouping.
 * Answers are remembered (a formatter costs tens of microseconds; a query may name a zone on
 * every request), for a bounded number of names.
 */
export function isValidTimeZone(zone: string): boolean {
  if (zone.length === 0 || zone.length > 64) return false;
  let known = knownZones.get(zone);
  if (known === undefined) {
    try {
      new Intl.DateTimeFormat('en-US', { timeZone: zone });
      known = true;
    } catch {
      known = false;
    }
    if (knownZones.size >= 1000) knownZones.clear();
    knownZones.set(zone, known);
  }
  return known;
}

export function systemTimeZone(): string {
  return Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
}

/**
 * Local calendar of one zone. Intl is slow (microseconds a call) and logs hold millions of
 * requests, so the UTC offset is cached per UTC hour. An hour whose start and end offsets differ
 * holds a transition; its instants are asked one by one, so DST and odd historical offsets stay exact.
 */
export class ZoneCalendar {
  readonly zone: string;
  private readonly format: Intl.DateTimeFormat | null;
  private readonly perHour = new Map<number, number>();

  constructor(zone: string) {
    if (zone === 'UTC') {
      // The common explicit case; creating an ICU formatter costs milliseconds.
      this.zone = zone;
      this.format = null;
      return;
    }
    const format = new Intl.DateTimeFormat('en-US', {
      timeZone: zone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
    this.zone = format.resolvedOptions().timeZone;
    this.format = this.zone === 'UTC' || this.zone === 'Etc/UTC' ? null : format;
  }

  /** Milliseconds to add to a UTC instant to get the local wall-clock time. */
  offsetAt(ms: number): number {
    if (this.format === null) return 0;
    const hour = Math.floor(ms / HOUR_MS);
    let offset = this.perHour.get(hour);
    if (offset === undefined) {
      const start = this.exactOffset(hour * HOUR_MS);
      offset = start === this.exactOffset(hour * HOUR_MS + HOUR_MS - 1) ? start : NaN;
      this.perHour.set(hour, offset);
    }
    return Number.isNaN(offset) ? this.exactOffset(ms) : offset;
  }

  /** Days since 1970-01-01 of the local date. */
  dayOf(ms: number): number {
    return Math.floor((ms + this.offsetAt(ms)) / DAY_MS);
  }

  /** Hours since 1970-01-01T00:00 of the local wall clock (a repeated DST hour maps to one slot). */
  hourOf(ms: number): number {
    return Math.floor((ms + this.offsetAt(ms)) / HOUR_MS);
  }

  private exactOffset(ms: number): number {
    const p: Record<string, number> = {};
    for (const part of this.format!.formatToParts(ms)) {
      if (part.type !== 'literal') p[part.type] = Number(part.value);
    }
    const wall = daysFromCivil(p.year!, p.month!, p.day!) * DAY_MS + p.hour! * HOUR_MS + p.minute! * 60_000 + p.second! * 1000;
    return wall - Math.floor(ms / 1000) * 1000;
  }
}

/** `YYYY-MM-DD` of a day number. */
export function dayLabel(day: number): string {
  return new Date(day * DAY_MS).toISOString().slice(0, 10);
}

/** `YYYY-MM-DD HH:00` of a local hour number. */
export function hourLabel(hour: number): string {
  const iso = new Date(hour * HOUR_MS).toISOString();
  return `${iso.slice(0, 10)} ${iso.slice(11, 13)}:00`;
}

/** `YYYYMMDD` → day number, or null when the text is not a real calendar date. */
export function parseCompactDate(text: string): number | null {
  const m = /^(\d{4})(\d{2})(\d{2})$/.exec(text);
  if (!m) return null;
  const year = Number(m[1]);
  const month = Number(m[2]);
  const day = Number(m[3]);
  const days = daysFromCivil(year, month, day);
  return month >= 1 && month <= 12 && day >= 1 && dayLabel(days) === `${m[1]}-${m[2]}-${m[3]}` ? days : null;
}
