/**
 * How deep JSON may nest, for every JSON body and every JSON text the app stores. No request or
 * settings file needs more than a handful of levels; 64 leaves room. Deeper text is refused before
 * it is parsed, so nothing recursive (validation, masking, merging, serialising) ever meets it.
 */
export const MAX_JSON_DEPTH = 64;

/** What a refusal for depth says: `JSON_TOO_DEEP` for JSON text, `TOO_DEEP` after a file's name. */
export const TOO_DEEP = `nested deeper than ${MAX_JSON_DEPTH} levels`;
export const JSON_TOO_DEEP = `JSON ${TOO_DEEP}`;

const OPEN_OBJECT = 0x7b;
const OPEN_ARRAY = 0x5b;
const CLOSE_OBJECT = 0x7d;
const CLOSE_ARRAY = 0x5d;
const QUOTE = 0x22;
const BACKSLASH = 0x5c;

/**
 * True when the text opens more than `max` objects/arrays inside one another. Brackets inside
 * strings do not count. Works on raw UTF-8 bytes as on a string: no byte of a multi-byte UTF-8
 * sequence is ASCII, so a byte scan and a UTF-16 scan see the same structure. Iterative (no stack)
 * and a single pass; text that is not JSON at all is left to the parser to refuse.
 */
export function jsonTooDeep(text: string | Uint8Array, max = MAX_JSON_DEPTH): boolean {
  return typeof text === 'string' ? stringTooDeep(text, max) : bytesTooDeep(text, max);
}

// Two copies of one loop, each over a single input type so that V8 keeps it monomorphic. A string
// is skipped whole with indexOf (memchr-fast) to its closing quote: most of a body is string content.

function stringTooDeep(text: string, max: number): boolean {
  let depth = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === QUOTE) {
      i = closingQuote(text, i + 1);
      if (i === -1) return false;
    } else if (c === OPEN_OBJECT || c === OPEN_ARRAY) {
      if (++depth > max) return true;
    } else if (c === CLOSE_OBJECT || c === CLOSE_ARRAY) depth--;
  }
  return false;
}

function bytesTooDeep(bytes: Uint8Array, max: number): boolean {
  const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let depth = 0;
  for (let i = 0; i < buffer.length; i++) {
    const c = buffer[i]!;
    if (c === QUOTE) {
      i = closingQuoteByte(buffer, i + 1);
      if (i === -1) return false;
    } else if (c === OPEN_OBJECT || c === OPEN_ARRAY) {
      if (++depth > max) return true;
    } else if (c === CLOSE_OBJECT || c === CLOSE_ARRAY) depth--;
  }
  return false;
}

/** Index of the quote that ends a string opened before `from` (one after an even run of backslashes), or -1. */
function closingQuote(text: string, from: number): number {
  for (let at = text.indexOf('"', from); at !== -1; at = text.indexOf('"', at + 1)) {
    let before = at - 1;
    while (before >= from && text.charCodeAt(before) === BACKSLASH) before--;
    if ((at - 1 - before) % 2 === 0) return at;
  }
  return -1;
}

function closingQuoteByte(bytes: Buffer, from: number): number {
  for (let at = bytes.indexOf(QUOTE, from); at !== -1; at = bytes.indexOf(QUOTE, at + 1)) {
    let before = at - 1;
    while (before >= from && bytes[before] === BACKSLASH) before--;
    if ((at - 1 - before) % 2 === 0) return at;
  }
  return -1;
}

/** Thrown where stored or sent JSON text nests too deep; carries the documented message. */
export class JsonTooDeepError extends Error {
  readonly status = 400;
  readonly type = 'entity.too.deep';
  constructor() {
    super(JSON_TOO_DEEP);
  }
}

/** For express.json's `verify`: refuses a body before it is parsed. */
export function refuseDeepJson(_req: unknown, _res: unknown, body: Buffer): void {
  if (jsonTooDeep(body)) throw new JsonTooDeepError();
}

/**
 * The same bound on parsed data (a YAML document's): true when objects/arrays nest deeper than
 * `max`. Iterative, so any depth is measured without a stack overflow; shared nodes (YAML aliases)
 * are walked once per path, which the alias count bound of the YAML reader keeps small.
 */
export function valueTooDeep(value: unknown, max = MAX_JSON_DEPTH): boolean {
  const stack: Array<[unknown, number]> = [[value, 0]];
  while (stack.length > 0) {
    const [node, depth] = stack.pop()!;
    if (typeof node !== 'object' || node === null) continue;
    if (depth + 1 > max) return true;
    for (const child of Object.values(node)) stack.push([child, depth + 1]);
  }
  return false;
}
