import { parseIsoTimestamp } from '../timestamp.js';

type Json = Record<string, unknown>;

export function isObject(v: unknown): v is Json {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** A count as agents log it: a finite non-negative number, truncated; anything else is 0. */
export function count(v: unknown): number {
  return typeof v === 'number' && Number.isFinite(v) && v > 0 ? Math.floor(v) : 0;
}

/** The first of `names` that `o` holds as a number. */
export function countOf(o: Json, ...names: string[]): number {
  for (const n of names) if (typeof o[n] === 'number') return count(o[n]);
  return 0;
}

export function text(v: unknown): string | null {
  return typeof v === 'string' && v.length > 0 ? v : null;
}

/** ISO text, or epoch seconds / milliseconds (numbers below 1e12 are seconds); NaN when neither. */
export function instant(v: unknown): number {
  if (typeof v === 'string') {
    const iso = parseIsoTimestamp(v);
    if (!Number.isNaN(iso)) return iso;
    const parsed = Date.parse(v);
    return Number.isNaN(parsed) ? NaN : parsed;
  }
  if (typeof v === 'number' && Number.isFinite(v) && v > 0) return v < 1e12 ? v * 1000 : v;
  return NaN;
}

/**
 * ccusage's total-token fallback: a logged total above the sum of the parts gives the rest to
 * output when output is 0, else counts it as extra tokens (priced as output).
 */
export function withLoggedTotal(parts: { output: number; extra: number; sum: number }, total: number): { output: number; extra: number } {
  const rest = total - parts.sum;
  if (rest <= 0) return { output: parts.output, extra: parts.extra };
  return parts.output === 0 ? { output: rest, extra: parts.extra } : { output: parts.output, extra: parts.extra + rest };
}

/** JSON of a whole file; null when damaged. */
export function parseJson(textIn: string): unknown {
  try {
    return JSON.parse(textIn);
  } catch {
    return null;
  }
}

/** Each non-blank line with its byte-ish offset (character index; enough to order lines of one file). */
export function* linesOf(textIn: string): Generator<{ line: string; at: number }> {
  let at = 0;
  while (at < textIn.length) {
    let end = textIn.indexOf('\n', at);
    if (end === -1) end = textIn.length;
    const line = textIn.slice(at, end).trim();
    if (line.length > 0) yield { line, at };
    at = end + 1;
  }
}

/** The file name without folder and extension. */
export function stem(file: string, ext: RegExp): string {
  const base = file.slice(Math.max(file.lastIndexOf('/'), file.lastIndexOf('\\')) + 1);
  return base.replace(ext, '');
}
