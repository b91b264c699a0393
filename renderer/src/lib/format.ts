/** Display formatting: one place, so every page shows numbers the same way. */
const intFmt = new Intl.NumberFormat('en-US');
const compactFmt = new Intl.NumberFormat('en-US', { notation: 'compact', maximumFractionDigits: 1 });
const usdFmt = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD', minimumFractionDigits: 2, maximumFractionDigits: 2 });

export const formatInt = (n: number | null | undefined): string => (n == null ? '—' : intFmt.format(n));
export const formatCompact = (n: number | null | undefined): string => (n == null ? '—' : compactFmt.format(n));
export const formatCost = (n: number | null | undefined): string => (n == null ? '—' : usdFmt.format(n));

/** Binary units, one decimal below 10 of a unit, whole numbers above (128 KiB reads "128 KB", never "0.1 MB" or "0.0 MB"). */
export function formatBytes(n: number): string {
  if (n < 1024) return `${n} B`;
  const units = ['KB', 'MB', 'GB', 'TB'];
  let value = n / 1024;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  return `${value < 10 ? value.toFixed(1) : formatInt(Math.round(value))} ${units[unit]}`;
}

export function formatTime(ms: number | null | undefined): string {
  if (ms == null) return '—';
  return new Date(ms).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });
}

/** "3h 12m" style duration; negative or zero reads "now". */
export function formatDuration(ms: number): string {
  if (ms <= 0) return 'now';
  const s = Math.floor(ms / 1000);
  const d = Math.floor(s / 86400);
  const h = Math.floor((s % 86400) / 3600);
  const m = Math.floor((s % 3600) / 60);
  if (d > 0) return `${d}d ${h}h`;
  if (h > 0) return `${h}h ${m}m`;
  if (m > 0) return `${m}m ${s % 60}s`;
  return `${s}s`;
}

/** YYYY-MM-DD of `date` in `timeZone` (en-CA formats dates that way). */
export function isoDay(date: Date, timeZone?: string): string {
  return new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(date);
}

/** `2025-11-03` → `20251103`, the API's since/until form. */
export const compactDay = (day: string): string => day.replaceAll('-', '');

export function systemTimeZone(): string {
  return Intl.DateTimeFormat().resolvedOptions().timeZone;
}

export function errorText(err: unknown): string {
  if (err instanceof Error) return err.message;
  return String(err);
}
