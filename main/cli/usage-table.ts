/**
 * A plain-text table sized to a terminal width: pure, so it is tested with tables of inputs.
 * Numbers align right. When the table is too wide, `shrink` columns (paths, model lists) give
 * up width first, down to their minimum, cut with `…` (paths keep their end, the part that names
 * the project); then `drop` columns are left out, highest rank first. Cell text never wraps.
 * Cells come from transcripts: their control characters are escaped first (terminal-text.ts),
 * widths are measured on the escaped text, and a cut never splits an escape.
 */
import { displayUnits } from '../infra/terminal-text.js';

export interface TextColumn {
  header: string;
  align?: 'left' | 'right';
  /** Can be cut down to `min` characters (default 12); `cutStart` keeps the end of the text. */
  shrink?: { min?: number; cutStart?: boolean };
  /** Left out when nothing else fits; the highest rank goes first. */
  drop?: number;
}

const GAP = 2;

export function formatTable(columns: readonly TextColumn[], rows: readonly (readonly string[])[], width = Infinity, footer?: readonly string[]): string {
  let visible = columns.map((_, i) => i);
  const all = footer ? [...rows, footer] : rows;
  const natural = columns.map((c, i) => Math.max(len(c.header), ...all.map((r) => len(r[i] ?? ''))));
  let widths = natural.slice();
  const total = () => visible.reduce((sum, i) => sum + widths[i]!, 0) + GAP * (visible.length - 1);
  for (;;) {
    widths = natural.slice();
    let excess = total() - width;
    // A character at a time from the widest shrinkable column, so they end up balanced.
    while (excess > 0) {
      const candidates = visible.filter((i) => columns[i]!.shrink && widths[i]! > minOf(columns[i]!));
      if (candidates.length === 0) break;
      const widest = candidates.reduce((a, b) => (widths[b]! > widths[a]! ? b : a));
      widths[widest] = widths[widest]! - 1;
      excess--;
    }
    if (excess <= 0) break;
    const droppable = visible.filter((i) => columns[i]!.drop !== undefined);
    if (droppable.length === 0) break; // as narrow as it gets: the terminal wraps the rest
    const first = droppable.reduce((a, b) => (columns[b]!.drop! > columns[a]!.drop! ? b : a));
    visible = visible.filter((i) => i !== first);
  }
  const line = (cells: readonly string[]) =>
    visible
      .map((i) => {
        const c = columns[i]!;
        const text = fit(cells[i] ?? '', widths[i]!, c.shrink?.cutStart === true);
        return c.align === 'right' ? text.padStart(widths[i]!) : text.padEnd(widths[i]!);
      })
      .join(' '.repeat(GAP))
      .trimEnd();
  const rule = visible.map((i) => '─'.repeat(widths[i]!)).join(' '.repeat(GAP));
  const out = [line(columns.map((c) => c.header)), rule, ...rows.map(line)];
  if (footer) out.push(rule, line(footer));
  return out.join('\n') + '\n';
}

function minOf(c: TextColumn): number {
  return Math.max(c.shrink?.min ?? 12, len(c.header));
}

/** Code points of the escaped text, not UTF-16 units: a path with an emoji still lines up. */
function len(s: string): number {
  return displayUnits(s).reduce((n, u) => n + unitWidth(u), 0);
}

function unitWidth(unit: string): number {
  return unit.length === 1 ? 1 : [...unit].length;
}

/** The escaped cell, cut to `width` on whole units (a character or a whole escape), with `…`. */
function fit(s: string, width: number, cutStart: boolean): string {
  const units = displayUnits(s);
  const full = units.reduce((n, u) => n + unitWidth(u), 0);
  if (full <= width) return units.join('');
  if (width <= 1) return '…'.slice(0, width);
  const kept: string[] = [];
  let used = 1; // the …
  for (let i = 0; i < units.length; i++) {
    const unit = units[cutStart ? units.length - 1 - i : i]!;
    if (used + unitWidth(unit) > width) break;
    kept.push(unit);
    used += unitWidth(unit);
  }
  return cutStart ? '…' + kept.reverse().join('') : kept.join('') + '…';
}
