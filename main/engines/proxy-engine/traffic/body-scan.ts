import { ThinkingObjectTracker } from './thinking-blocks.js';

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
   * means "check" (see `stripUnsignedThinking`).
   */
  mayHoldThinking: boolean;
  /**
   * With `mayHoldThinking`: the innermost objects holding a `"thinking"` token, as [start, end)
   * pairs; checking those is enough (see thinking-blocks.ts). Absent: parse the whole body.
   */
  thinkingObjects?: number[];
  /**
   * Where the string literals of at least LONG_STRING bytes are, as flat [start, end) pairs
   * (quotes included), in order: translation splices these bytes instead of re-encoding them.
   */
  longStrings: number[];
  /** Where the top-level `tools` value lies, [start, end): translation maps it apart (see ToolsMemo). */
  toolsSpan?: [number, number];
}

/** Strings this long are worth splicing as bytes rather than decoding and encoding again. */
export const LONG_STRING = 256;

const QUOTE = 0x22;
const BACKSLASH = 0x5c;

/**
 * Undefined when the bytes are not a well-formed top-level object as far as the scan can tell:
 * parse them instead. The thinking check rides on the walk (each string token of `messages` is
 * compared as it is stepped over): a byte search for `"thinking"` over the messages cost as much
 * as the whole walk, since JSON is full of quotes, the search's first byte.
 */
export function scanBody(raw: Buffer): BodyFacts | undefined {
  return new Scan(raw).facts();
}

class Scan {
  /** While walking `messages`: every string token is checked for a thinking block's type. */
  private watching = false;
  private sawThinking = false;
  private readonly thinking = new ThinkingObjectTracker();
  private readonly longStrings: number[] = [];

  constructor(private readonly raw: Buffer) {}

  facts(): BodyFacts | undefined {
    const raw = this.raw;
    const facts: BodyFacts = { model: undefined, stream: false, userId: undefined, hasMessages: false, mayHoldThinking: false, longStrings: this.longStrings };
    let i = skipSpace(raw, 0);
    if (raw[i] !== 0x7b) return undefined;
    i = skipSpace(raw, i + 1);
    if (raw[i] === 0x7d) return skipSpace(raw, i + 1) === raw.length ? facts : undefined;
    for (;;) {
      if (raw[i] !== QUOTE) return undefined;
      const keyEnd = this.stringEnd(i);
      if (keyEnd === -1) return undefined;
      const key = raw.toString('latin1', i + 1, keyEnd - 1);
      i = skipSpace(raw, keyEnd);
      if (raw[i] !== 0x3a) return undefined;
      const start = skipSpace(raw, i + 1);
      this.watching = key === 'messages';
      const end = this.valueEnd(start);
      this.watching = false;
      if (end === -1) return undefined;
      if (key.includes('\\')) return undefined; // an escaped key could spell any of ours
      if (!this.take(facts, key, start, end)) return undefined;
      i = skipSpace(raw, end);
      if (raw[i] === 0x2c) {
        i = skipSpace(raw, i + 1);
        continue;
      }
      if (raw[i] === 0x7d && skipSpace(raw, i + 1) === raw.length) return facts;
      return undefined;
    }
  }

  private take(facts: BodyFacts, key: string, start: number, end: number): boolean {
    const raw = this.raw;
    switch (key) {
      case 'model':
        facts.model = raw[start] === QUOTE && !hasByte(raw, start, end, BACKSLASH) ? raw.toString('utf8', start + 1, end - 1) : parseSlice(raw, start, end);
        return facts.model !== INVALID;
      case 'stream':
        facts.stream = end - start === 4 && raw.toString('latin1', start, end) === 'true';
        return true;
      case 'messages':
        facts.hasMessages = raw[start] === 0x5b;
        facts.mayHoldThinking = this.sawThinking;
        if (this.sawThinking) {
          const spans = this.thinking.spans();
          if (spans) facts.thinkingObjects = spans;
        }
        return true;
      case 'tools':
        facts.toolsSpan = [start, end];
        return true;
      case 'metadata': {
        // Claude Code's own shape, read without a parse; any other goes to JSON.parse.
        if (PLAIN_METADATA.test(raw.toString('latin1', start, end))) {
          facts.userId = raw.toString('utf8', start + PLAIN_METADATA_PREFIX, end - 2);
          return true;
        }
        const metadata = parseSlice(raw, start, end);
        if (metadata === INVALID) return false;
        facts.userId = metadata !== null && typeof metadata === 'object' ? (metadata as { user_id?: unknown }).user_id : undefined;
        return true;
      }
      default:
        return true;
    }
  }

  /** Index after the closing quote of the string opening at `i`; -1 if unterminated. */
  private stringEnd(i: number): number {
    const raw = this.raw;
    let at = i;
    for (;;) {
      at = raw.indexOf(QUOTE, at + 1);
      if (at === -1) return -1;
      let slashes = 0;
      while (raw[at - 1 - slashes] === BACKSLASH) slashes++;
      if (slashes % 2 === 0) break;
    }
    if (this.watching && this.spellsThinking(i, at + 1)) {
      this.sawThinking = true;
      this.thinking.mark();
    }
    if (at + 1 - i >= LONG_STRING) this.longStrings.push(i, at + 1);
    return at + 1;
  }

  /**
   * The string token [start, end) is `"thinking"`: a thinking block's type (or a key of that name,
   * which only costs a parse). A short token with escapes is decoded, so `"thin\u006bing"` counts too.
   */
  private spellsThinking(start: number, end: number): boolean {
    // Byte loops, not a string or a subarray per token: messages hold hundreds of short tokens.
    const length = end - start;
    if (length === THINKING.length) return bytesAre(this.raw, start, THINKING_BYTES);
    if (length > MAX_ESCAPED_THINKING || length < THINKING.length || !hasByte(this.raw, start, end, BACKSLASH)) return false;
    return parseSlice(this.raw, start, end) === 'thinking';
  }

  /** Index after the value starting at `i` (string, object, array or literal); -1 when it does not close. */
  private valueEnd(i: number): number {
    const raw = this.raw;
    const c = raw[i];
    if (c === QUOTE) return this.stringEnd(i);
    if (c === 0x7b || c === 0x5b) {
      let depth = 0;
      for (let at = i; at < raw.length; at++) {
        const b = raw[at]!;
        if (b === QUOTE) {
          at = this.stringEnd(at) - 1;
          if (at < 0) return -1;
        } else if (b === 0x7b || b === 0x5b) {
          depth++;
          if (b === 0x7b && this.watching) this.thinking.open(at);
        } else if (b === 0x7d || b === 0x5d) {
          if (b === 0x7d && this.watching) this.thinking.close(at);
          if (--depth === 0) return at + 1;
        }
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
}

/** `{"user_id":"<no quote, backslash or control byte>"}`, as Claude Code sends it. */
const PLAIN_METADATA = /^\{"user_id":"[^"\\\u0000-\u001f]*"\}$/;
const PLAIN_METADATA_PREFIX = '{"user_id":"'.length;
const THINKING = '"thinking"';
const THINKING_BYTES = Buffer.from(THINKING, 'latin1');
/** `"thinking"` with every letter escaped as \uXXXX. */
const MAX_ESCAPED_THINKING = 2 + 8 * 6;
const INVALID = Symbol('invalid');

function parseSlice(raw: Buffer, start: number, end: number): unknown {
  try {
    return JSON.parse(raw.toString('utf8', start, end)) as unknown;
  } catch {
    return INVALID;
  }
}

/** raw[start, start + bytes.length) equals `bytes` (the caller knows the range is inside `raw`). */
function bytesAre(raw: Buffer, start: number, bytes: Buffer): boolean {
  for (let i = 0; i < bytes.length; i++) if (raw[start + i] !== bytes[i]) return false;
  return true;
}

function hasByte(raw: Buffer, start: number, end: number, byte: number): boolean {
  for (let i = start; i < end; i++) if (raw[i] === byte) return true;
  return false;
}

function skipSpace(raw: Buffer, i: number): number {
  while (i < raw.length) {
    const c = raw[i]!;
    if (c !== 0x20 && c !== 0x0a && c !== 0x0d && c !== 0x09) break;
    i++;
  }
  return i;
}
