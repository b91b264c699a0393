/**
 * What routing needs from a client body, read without parsing it (issue 19 point 6): one pass
 * over the top-level object that jumps over string contents with a native byte search, decoding
 * only `model`, `stream` and `metadata`. Passthrough forwards the bytes it was given; only
 * translation, aliases and unsigned thinking blocks need the parsed body.
 */
export interface BodyFacts {
  model: unknown;
  stream: boolean;
  /** `metadata.user_id` (Claude Code's session). */
  userId: unknown;
  hasMessages: boolean;
  /**
   * The messages may hold a thinking block, which an Anthropic upstream refuses unsigned; true
   * means "parse and check" (see `stripUnsignedThinking`).
   */
  mayHoldThinking: boolean;
}

const QUOTE = 0x22;
const THINKING = Buffer.from('"thinking"');
const BACKSLASH = 0x5c;

/** Undefined when the bytes are not a well-formed top-level object as far as the scan can tell: parse them instead. */
export function scanBody(raw: Buffer): BodyFacts | undefined {
  const facts: BodyFacts = { model: undefined, stream: false, userId: undefined, hasMessages: false, mayHoldThinking: false };
  let i = skipSpace(raw, 0);
  if (raw[i] !== 0x7b) return undefined;
  i = skipSpace(raw, i + 1);
  if (raw[i] === 0x7d) return skipSpace(raw, i + 1) === raw.length ? facts : undefined;
  for (;;) {
    if (raw[i] !== QUOTE) return undefined;
    const keyEnd = stringEnd(raw, i);
    if (keyEnd === -1) return undefined;
    const key = raw.toString('latin1', i + 1, keyEnd - 1);
    i = skipSpace(raw, keyEnd);
    if (raw[i] !== 0x3a) return undefined;
    const start = skipSpace(raw, i + 1);
    const end = valueEnd(raw, start);
    if (end === -1) return undefined;
    if (key.includes('\\')) return undefined; // an escaped key could spell any of ours
    if (!take(facts, key, raw, start, end)) return undefined;
    i = skipSpace(raw, end);
    if (raw[i] === 0x2c) {
      i = skipSpace(raw, i + 1);
      continue;
    }
    if (raw[i] === 0x7d && skipSpace(raw, i + 1) === raw.length) return facts;
    return undefined;
  }
}

function take(facts: BodyFacts, key: string, raw: Buffer, start: number, end: number): boolean {
  switch (key) {
    case 'model':
      facts.model = raw[start] === QUOTE && !hasByteWithin(raw, BACKSLASH, start, end) ? raw.toString('utf8', start + 1, end - 1) : parseSlice(raw, start, end);
      return facts.model !== INVALID;
    case 'stream':
      facts.stream = end - start === 4 && raw.toString('latin1', start, end) === 'true';
      return true;
    case 'messages':
      facts.hasMessages = raw[start] === 0x5b;
      facts.mayHoldThinking = indexWithin(raw, THINKING, start, end) !== -1;
      return true;
    case 'metadata': {
      const metadata = parseSlice(raw, start, end);
      if (metadata === INVALID) return false;
      facts.userId = metadata !== null && typeof metadata === 'object' ? (metadata as { user_id?: unknown }).user_id : undefined;
      return true;
    }
    default:
      return true;
  }
}

const INVALID = Symbol('invalid');

function parseSlice(raw: Buffer, start: number, end: number): unknown {
  try {
    return JSON.parse(raw.toString('utf8', start, end)) as unknown;
  } catch {
    return INVALID;
  }
}

function hasByteWithin(raw: Buffer, byte: number, start: number, end: number): boolean {
  const at = raw.indexOf(byte, start);
  return at !== -1 && at < end;
}

/** Searches only the value's bytes (a subarray is a view, not a copy). */
function indexWithin(raw: Buffer, needle: Buffer, start: number, end: number): number {
  const at = raw.subarray(start, end).indexOf(needle);
  return at === -1 ? -1 : start + at;
}

function skipSpace(raw: Buffer, i: number): number {
  while (i < raw.length) {
    const c = raw[i]!;
    if (c !== 0x20 && c !== 0x0a && c !== 0x0d && c !== 0x09) break;
    i++;
  }
  return i;
}

/** Index after the closing quote of the string opening at `i`; -1 if unterminated. */
function stringEnd(raw: Buffer, i: number): number {
  let at = i;
  for (;;) {
    at = raw.indexOf(QUOTE, at + 1);
    if (at === -1) return -1;
    let slashes = 0;
    while (raw[at - 1 - slashes] === BACKSLASH) slashes++;
    if (slashes % 2 === 0) return at + 1;
  }
}

/** Index after the value starting at `i` (string, object, array or literal); -1 when it does not close. */
function valueEnd(raw: Buffer, i: number): number {
  const c = raw[i];
  if (c === QUOTE) return stringEnd(raw, i);
  if (c === 0x7b || c === 0x5b) {
    let depth = 0;
    for (let at = i; at < raw.length; at++) {
      const b = raw[at]!;
      if (b === QUOTE) {
        at = stringEnd(raw, at) - 1;
        if (at < 0) return -1;
      } else if (b === 0x7b || b === 0x5b) depth++;
      else if ((b === 0x7d || b === 0x5d) && --depth === 0) return at + 1;
    }
    return -1;
  }
  let at = i;
  while (at < raw.length) {
    const b = raw[at]!;
    if (b === 0x2c || b === 0x7d || b === 0x5d || b === 0x20 || b === 0x0a || b === 0x0d || b === 0x09) break;
    at++;
  }
  return at > i ? at : -1;
}
