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
const WIDTH = 6;
const ESCAPE = '\\u0000';

function marker(index: number): string {
  return `\u0000${KEY}${String(index).padStart(WIDTH, '0')}`;
}

/**
 * The client's JSON with the literals at `spans` ([start, end) pairs, in order, quotes included)
 * swapped for markers, parsed; undefined when that is not a JSON object.
 */
export function parseSkeleton(raw: Buffer, spans: readonly number[]): Record<string, unknown> | undefined {
  if (spans.length / 2 >= 10 ** WIDTH) return undefined;
  let text = '';
  let at = 0;
  for (let k = 0; k < spans.length; k += 2) {
    text += raw.toString('utf8', at, spans[k]) + JSON.stringify(marker(k / 2));
    at = spans[k + 1]!;
  }
  text += raw.toString('utf8', at);
  try {
    const value: unknown = JSON.parse(text);
    return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

/** JSON.stringify(value) as UTF-8, each marker replaced by the client's bytes of its string; undefined when one cannot be. */
export function stringifySpliced(value: unknown, raw: Buffer, spans: readonly number[]): Buffer | undefined {
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
    const digits = text.slice(key + KEY.length, key + KEY.length + WIDTH);
    if (!/^[0-9]{6}$/.test(digits)) return undefined;
    const k = Number(digits) * 2;
    if (k + 1 >= spans.length) return undefined;
    const inner = raw.subarray(spans[k]! + 1, spans[k + 1]! - 1);
    parts.push(Buffer.from(text.slice(from, escape - slashes)));
    parts.push(slashes === 0 ? inner : Buffer.from(JSON.stringify(inner.toString('utf8')).slice(1, -1)));
    from = key + KEY.length + WIDTH;
  }
  if (parts.length === 0) return Buffer.from(text);
  parts.push(Buffer.from(text.slice(from)));
  return Buffer.concat(parts);
}
