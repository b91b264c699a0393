const ISO = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(?:\.(\d{3}))?(?:(Z)|([+-])(\d{2}):(\d{2}))$/;

export const HOUR_MS = 3_600_000;
export const DAY_MS = 86_400_000;

/**
 * Milliseconds for `YYYY-MM-DDTHH:MM:SS[.mmm](Z|±HH:MM)`, the shape the reference tool accepts;
 * NaN for anything else, including dates that do not exist (Date.parse would roll 02-30 over).
 */
export function parseIsoTimestamp(text: string): number {
  if (text.length === 24 && text.charCodeAt(23) === 0x5a) {
    const fast = parseUtcMillis(text);
    if (!Number.isNaN(fast)) return fast;
  }
  const m = ISO.exec(text);
  if (!m) return NaN;
  const year = Number(m[1]);
  const month = Number(m[2]);
  const day = Number(m[3]);
  const hour = Number(m[4]);
  const minute = Number(m[5]);
  const second = Number(m[6]);
  if (month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) return NaN;
  if (hour > 23 || minute > 59 || second > 59) return NaN;
  let ms = daysFromCivil(year, month, day) * DAY_MS + hour * HOUR_MS + minute * 60_000 + second * 1000;
  if (m[7]) ms += Number(m[7]);
  if (!m[8]) {
    const offHours = Number(m[10]);
    const offMinutes = Number(m[11]);
    if (offHours > 23 || offMinutes > 59) return NaN;
    const offset = (offHours * 60 + offMinutes) * 60_000;
    ms += m[9] === '+' ? -offset : offset;
  }
  return ms;
}

/**
 * `YYYY-MM-DDTHH:MM:SS.mmmZ`, the shape nearly every line has, without a regex; NaN sends the
 * text to the general parser, which also rejects what this one cannot read.
 */
function parseUtcMillis(t: string): number {
  if (t[4] !== '-' || t[7] !== '-' || t[10] !== 'T' || t[13] !== ':' || t[16] !== ':' || t[19] !== '.') return NaN;
  const year = digits(t, 0, 4);
  const month = digits(t, 5, 2);
  const day = digits(t, 8, 2);
  const hour = digits(t, 11, 2);
  const minute = digits(t, 14, 2);
  const second = digits(t, 17, 2);
  const millis = digits(t, 20, 3);
  if (month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month) || hour > 23 || minute > 59 || second > 59) return NaN;
  return daysFromCivil(year, month, day) * DAY_MS + hour * HOUR_MS + minute * 60_000 + second * 1000 + millis;
}

/** The decimal value of `count` ASCII digits at `from`; NaN if any is not a digit. */
function digits(t: string, from: number, count: number): number {
  let n = 0;
  for (let i = from; i < from + count; i++) {
    const d = t.charCodeAt(i) - 48;
    if (d < 0 || d > 9) return NaN;
    n = n * 10 + d;
  }
  return n;
}

export function isLeapYear(year: number): boolean {
  return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
}

export function daysInMonth(year: number, month: number): number {
  if (month === 2) return isLeapYear(year) ? 29 : 28;
  return month === 4 || month === 6 || month === 9 || month === 11 ? 30 : 31;
}

/** Days since 1970-01-01 of a proleptic Gregorian date (H. Hinnant's algorithm; no Date quirks). */
export function daysFromCivil(year: number, month: number, day: number): number {
  const y = month <= 2 ? year - 1 : year;
  const era = Math.floor(y / 400);
  const yoe = y - era * 400;
  const doy = Math.floor((153 * (month + (month > 2 ? -3 : 9)) + 2) / 5) + day - 1;
  const doe = yoe * 365 + Math.floor(yoe / 4) - Math.floor(yoe / 100) + doy;
  return era * 146097 + doe - 719468;
}
