import { randomBytes } from 'node:crypto';

/**
 * Translation without decoding and re-encoding the client's long strings (issue 19 point 6). A
 * Claude Code request is mostly a few long strings (the system prompt, tool results, file
 * contents); JSON.parse and JSON.stringify of them were half of a translated request's CPU, and
 * one typographic quote anywhere made the whole re-encoded body a two-byte string, slow to turn
 * into UTF-8. Instead each long string literal is swapped for a short marker before parsing, the
 * translator works on that small object, and the marker's place in its JSON text gets the client's
 * own bytes back: valid JSON text for the same string, so the upstream reads the same request.
 *
 * A marker may land inside a bigger string (the translator joins system blocks, prefixes a data
 * URL) and is spliced there just the same; inside a string that is itself JSON inside a string
 * (tool_use input stringified into `arguments`) the bytes are escaped once more. Anything else —
 * a marker cut short, or nested deeper — returns undefined and the caller encodes the real value.
 */

/** Per process, so a client cannot spell a marker by accident. */
const KEY = `sb${randomBytes(6).toString('hex')}:`;
/** A marker's tail after the key: six digits for a long string, `v` and five digits for a whole value. */
const WIDTH = 6;
const ESCAPE = '\\u0000';

function marker(index: number): string {
  return `\u0000${KEY}${String(index).padStart(WIDTH, '0')}`;
}

/**
 * A string that stringifySpliced replaces, quotes and all, by `values[index]`: JSON text made
 * apart (the translated tools, see ClientBody.encode), put where the builder put this string.
 */
export function valueMarker(index: number): string {
  return `\u0000${KEY}v${String(index).padStart(WIDTH - 1, '0')}`;
}

/** A stretch of the client's bytes, [start, end), that the skeleton leaves out for `text` (JSON). */
export interface SkeletonCut {
  start: number;
  end: number;
  text: string;
}

/**
 * The client's JSON in [from, to) — the whole body by default — with the literals at `spans`
 * ([start, end) pairs over the whole body, in order, quotes included) swapped for markers and
 * `cut` swapped for its text, parsed; undefined when that is not JSON.
 */
export function parseSkeleton(raw: Buffer, spans: readonly number[], from = 0, to = raw.length, cut?: SkeletonCut): unknown {
  if (spans.length / 2 >= 10 ** WIDTH) return undefined;
  let text = '';
  let at = from;
  const skip = (k: number) => spans[k]! < from || spans[k + 1]! > to || (cut !== undefined && spans[k]! >= cut.start && spans[k + 1]! <= cut.end);
  /** The cut, once, when the text has reached it and it starts before `next`. */
  const takeCut = (next: number) => {
    if (!cut || at > cut.start || cut.start >= next) return;
    text += raw.toString('utf8', at, cut.start) + cut.text;
    at = cut.end;
  };
  for (let k = 0; k < spans.length; k += 2) {
    if (skip(k)) continue;
    takeCut(spans[k]!);
    text += raw.toString('utf8', at, spans[k]) + JSON.stringify(marker(k / 2));
    at = spans[k + 1]!;
  }
  takeCut(Infinity);
  text += raw.toString('utf8', at, to);
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/**
 * JSON.stringify(value) as UTF-8, each string marker replaced by the client's bytes of its string
 * and each value marker by `values[i]`; undefined when one cannot be.
 */
export function stringifySpliced(value: unknown, raw: Buffer, spans: readonly number[], values: readonly Buffer[] = []): Buffer | undefined {
  const text = JSON.stringify(value);
  if (text === undefined) return undefined;
  const parts: Buffer[] = [];
  let from = 0;
  // Every NUL in the text must start a whole marker: one cut short (or a NUL of the client's) means
  // this text cannot be trusted, and the caller encodes the real value.
  for (let escape = text.indexOf(ESCAPE); escape !== -1; escape = text.indexOf(ESCAPE, from)) {
    let slashes = 0;
    while (text.charCodeAt(escape - 1 - slashes) === 0x5c) slashes++;
    // 0: the marker's own string; 1: that string's JSON inside another string. Deeper: give up.
    if (slashes > 1) return undefined;
    const key = escape + ESCAPE.length;
    if (!text.startsWith(KEY, key)) return undefined;
    const tail = key + KEY.length;
    const digits = text.slice(tail, tail + WIDTH);
    if (digits.charCodeAt(0) === 0x76) {
      // A whole value: only as a string of its own (`"<marker>"`), never inside another one.
      const v = /^v[0-9]{5}$/.test(digits) ? Number(digits.slice(1)) : -1;
      if (slashes !== 0 || v < 0 || v >= values.length || text.charCodeAt(escape - 1) !== 0x22 || text.charCodeAt(tail + WIDTH) !== 0x22) return undefined;
      parts.push(Buffer.from(text.slice(from, escape - 1)), values[v]!);
      from = tail + WIDTH + 1;
      continue;
    }
    if (!/^[0-9]{6}$/.test(digits)) return undefined;
    const k = Number(digits) * 2;
    if (k + 1 >= spans.length) return undefined;
    const inner = raw.subarray(spans[k]! + 1, spans[k + 1]! - 1);
    parts.push(Buffer.from(text.slice(from, escape - slashes)));
    parts.push(slashes === 0 ? inner : Buffer.from(JSON.stringify(inner.toString('utf8')).slice(1, -1)));
    from = tail + WIDTH;
  }
  if (parts.length === 0) return Buffer.from(text);
  parts.push(Buffer.from(text.slice(from)));
  return Buffer.concat(parts);
}
