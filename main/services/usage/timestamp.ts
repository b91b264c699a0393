const ISO = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(?:\.(\d{3}))?(?:(Z)|([+-])(\d{2}):(\d{2}))$/;

export const HOUR_MS = 3_600_000;
export const DAY_MS = 86_400_000;

/**
 * Milliseconds for `YYYY-MM-DDTHH:MM:SS[.mmm](Z|±HH:MM)`, the shape the reference tool accepts;
 * NaN for anything else, including dates that do not exist (Date.parse would roll 02-30 over).
 */
export function parseIsoTimestamp(text: string): number {
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
