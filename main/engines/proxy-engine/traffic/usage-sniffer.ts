import type { TokenCounts } from './request-entry.js';

const USAGE_KEY = '"usage"';
/** A usage object split across chunks is carried this far at most (real ones are < 400 bytes). */
const MAX_CARRY = 4096;

/**
 * Token counts and mid-stream errors read from upstream bytes without parsing the whole body:
 * each `"usage": {...}` object is cut out by brace matching and parsed alone. Works for both
 * formats and both shapes: Anthropic's `message_start` / `message_delta` usage (later fields win)
 * and OpenAI's usage chunk or body (`prompt_tokens` includes cached tokens, which are split off).
 */
export class UsageSniffer {
  private input: number | undefined;
  private output: number | undefined;
  private cacheRead: number | undefined;
  private cacheWrite: number | undefined;
  private carry = '';
  /** The message of an error event seen in the stream, if one came. */
  streamError: string | undefined;

  /** Feeds one chunk of a stream (or a whole body). */
  feed(chunk: Buffer | string): void {
    if (this.carry === '') {
      // The common case: no usage in this chunk, and no allocation for it.
      const at = chunk.indexOf(USAGE_KEY);
      if (at === -1) return this.sniffError(chunk);
      this.scan(typeof chunk === 'string' ? chunk.slice(at) : chunk.toString('utf8', at));
    } else {
      this.scan(this.carry + (typeof chunk === 'string' ? chunk : chunk.toString('utf8')));
    }
    this.sniffError(chunk);
  }

  /** What was seen, or null when the upstream reported no usage. */
  tokens(): TokenCounts | null {
    if (this.input === undefined && this.output === undefined) return null;
    return { input: this.input ?? 0, output: this.output ?? 0, cacheRead: this.cacheRead ?? 0, cacheWrite: this.cacheWrite ?? 0 };
  }

  /** Reads a whole JSON body's top-level usage (non-streaming answers). */
  static ofBody(body: Buffer | string): TokenCounts | null {
    const s = new UsageSniffer();
    const at = body.lastIndexOf(USAGE_KEY);
    if (at === -1) return null;
    s.scan(typeof body === 'string' ? body.slice(at) : body.toString('utf8', at));
    return s.tokens();
  }

  /** From an already parsed usage object of either format. */
  take(usage: unknown): void {
    if (usage === null || typeof usage !== 'object') return;
    const u = usage as Record<string, unknown>;
    if (typeof u.prompt_tokens === 'number' || typeof u.completion_tokens === 'number') {
      const details = u.prompt_tokens_details as { cached_tokens?: unknown } | undefined;
      const cached = num(details?.cached_tokens) ?? num(u.prompt_cache_hit_tokens) ?? 0;
      if (typeof u.prompt_tokens === 'number') this.input = Math.max(0, u.prompt_tokens - cached);
      this.cacheRead = cached;
      this.output = num(u.completion_tokens) ?? this.output;
      return;
    }
    this.input = num(u.input_tokens) ?? this.input;
    this.output = num(u.output_tokens) ?? this.output;
    this.cacheRead = num(u.cache_read_input_tokens) ?? this.cacheRead;
    this.cacheWrite = num(u.cache_creation_input_tokens) ?? this.cacheWrite;
  }

  /** `text` starts at a `"usage"` key; takes every complete usage object, carries an incomplete one. */
  private scan(text: string): void {
    this.carry = '';
    let at = 0;
    while ((at = text.indexOf(USAGE_KEY, at)) !== -1) {
      const open = text.indexOf('{', at + USAGE_KEY.length);
      if (open === -1 || !/^\s*:\s*$/.test(text.slice(at + USAGE_KEY.length, open))) {
        if (open === -1 && text.length - at < MAX_CARRY) this.carry = text.slice(at);
        at += USAGE_KEY.length;
        if (open === -1) return;
        continue;
      }
      const close = matchingBrace(text, open);
      if (close === -1) {
        if (text.length - at < MAX_CARRY) this.carry = text.slice(at);
        return;
      }
      try {
        this.take(JSON.parse(text.slice(open, close + 1)));
      } catch {
        // not a usage object after all (text inside a string, say): ignore it
      }
      at = close + 1;
    }
  }

  private sniffError(chunk: Buffer | string): void {
    if (this.streamError !== undefined) return;
    // Anthropic names the event; OpenAI-compatible servers send a data line holding {error}.
    // The line break proves an SSE field: inside JSON text a newline is escaped.
    let at = chunk.indexOf('event: error\n');
    if (at === -1) at = chunk.indexOf('event: error\r');
    const data = at !== -1 ? chunk.indexOf('data:', at) : chunk.indexOf('data: {"error"');
    if (at === -1 && data === -1) return;
    const text = typeof chunk === 'string' ? chunk : chunk.toString('utf8');
    const start = text.indexOf('{', data === -1 ? at : data);
    const end = text.indexOf('\n', start);
    let message = 'Upstream sent an error event in the stream';
    try {
      const parsed = JSON.parse(text.slice(start, end === -1 ? undefined : end)) as { error?: { message?: unknown } };
      if (typeof parsed.error?.message === 'string') message = parsed.error.message;
    } catch {
      // split across chunks: the generic message stands
    }
    this.streamError = message;
  }
}

function num(v: unknown): number | undefined {
  return typeof v === 'number' && Number.isFinite(v) ? v : undefined;
}

/** Index of the `}` closing the object opened at `open`, skipping strings; -1 if not in `text`. */
function matchingBrace(text: string, open: number): number {
  let depth = 0;
  for (let i = open; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x22) {
      // skip a string, honouring escapes
      for (i++; i < text.length && text.charCodeAt(i) !== 0x22; i++) if (text.charCodeAt(i) === 0x5c) i++;
    } else if (c === 0x7b) depth++;
    else if (c === 0x7d && --depth === 0) return i;
  }
  return -1;
}
