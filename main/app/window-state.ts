import { DEFAULT_SIZE, MIN_SIZE, type WindowBounds } from './window-options.js';

/**
 * Rules for the UI preferences electron-store keeps (window bounds, last page): stored values are
 * user-editable files, so they are checked before use.
 */
export interface Rect {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** Saved bounds when they are sane and still on a screen; else the default size, centred by the OS. */
export function restoreBounds(saved: unknown, workAreas: Rect[]): WindowBounds {
  if (!isRect(saved)) return { ...DEFAULT_SIZE };
  const width = Math.max(MIN_SIZE.width, Math.round(saved.width));
  const height = Math.max(MIN_SIZE.height, Math.round(saved.height));
  const placed = { x: Math.round(saved.x), y: Math.round(saved.y), width, height };
  // A monitor that was unplugged must not leave the window off screen.
  return workAreas.some((area) => overlap(placed, area) >= 100 * 100) ? placed : { width, height };
}

function isRect(value: unknown): value is Rect {
  if (typeof value !== 'object' || value === null) return false;
  const r = value as Record<string, unknown>;
  return ['x', 'y', 'width', 'height'].every((k) => typeof r[k] === 'number' && Number.isFinite(r[k])) && (r.width as number) > 0 && (r.height as number) > 0;
}

function overlap(a: Rect, b: Rect): number {
  const w = Math.min(a.x + a.width, b.x + b.width) - Math.max(a.x, b.x);
  const h = Math.min(a.y + a.height, b.y + b.height) - Math.max(a.y, b.y);
  return w > 0 && h > 0 ? w * h : 0;
}

/** The dashboard's hash route (`#/usage`) to reopen; anything else falls back to the overview. */
export function restoreLastPage(saved: unknown): string {
  return typeof saved === 'string' && /^#\/[A-Za-z0-9/_-]{0,100}$/.test(saved) ? saved : '';
}

/** The hash route of a URL shown in the window, for saving as the last page. */
export function pageOf(url: string): string {
  try {
    return restoreLastPage(new URL(url).hash);
  } catch {
    return '';
  }
}

/** URL the window loads: always the local dashboard, optionally at a saved hash route. */
export function dashboardUrl(origin: string, lastPage: unknown): string {
  return `${origin}/${restoreLastPage(lastPage)}`;
}
