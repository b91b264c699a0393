import { count, countOf, isObject, text } from './fields.js';

/** One usage object in OpenAI's terms: cached ⊂ input, reasoning ⊂ output. */
export interface OpenAiUsage {
  input: number;
  cached: number;
  output: number;
  reasoning: number;
}

/** What a `token_count` event says: its time, the session's running total, the turn's usage, a model if named. */
export interface TokenCountEvent {
  timestamp: unknown;
  model: string | null;
  total: OpenAiUsage | null;
  last: OpenAiUsage | null;
}

/**
 * A count JSON.parse reads as the same exact integer: no sign, fraction, exponent or leading zero,
 * at most 15 digits (below 2^53). Anything else is left to JSON.parse.
 */
const N = '(0|[1-9][0-9]{0,14})';
const USAGE = `\\{"input_tokens":${N},"cached_input_tokens":${N},"output_tokens":${N},"reasoning_output_tokens":${N},"total_tokens":(?:0|[1-9][0-9]{0,14})\\}`;
/**
 * The line Codex writes for most turns, exactly: keys in Codex's order, no spaces, a timestamp
 * string without escapes or control characters (which JSON.parse would reject or decode).
 */
const CANONICAL = new RegExp(
  `^\\{"timestamp":"([^"\\\\\\u0000-\\u001f]*)","type":"event_msg","payload":\\{"type":"token_count","info":\\{"total_token_usage":${USAGE}(?:,"last_token_usage":${USAGE})?\\}\\}\\}$`,
);

/**
 * The event of a canonical `token_count` line read without JSON.parse (a third of a Codex log's
 * lines, most of its parse time); null for any other line, which the caller parses. For a line
 * it reads, the answer equals `tokenCountOf(JSON.parse(line))` (test/…/codex-token-line.test.ts).
 */
export function canonicalTokenCount(line: string): TokenCountEvent | null {
  const m = CANONICAL.exec(line);
  if (m === null) return null;
  return {
    timestamp: m[1],
    model: null,
    total: { input: Number(m[2]), cached: Number(m[3]), output: Number(m[4]), reasoning: Number(m[5]) },
    last: m[6] === undefined ? null : { input: Number(m[6]), cached: Number(m[7]), output: Number(m[8]), reasoning: Number(m[9]) },
  };
}

/** The event of a parsed line; null when it is not a `token_count` event with an `info` object. */
export function tokenCountOf(o: Record<string, unknown>): TokenCountEvent | null {
  if (o.type !== 'event_msg') return null;
  const payload = isObject(o.payload) ? o.payload : {};
  if (payload.type !== 'token_count' || !isObject(payload.info)) return null;
  const info = payload.info;
  return {
    timestamp: o.timestamp,
    model: text(payload.model) ?? text(info.model) ?? text(o.model_name) ?? (isObject(o.metadata) ? text(o.metadata.model) : null),
    total: usageOf(info.total_token_usage),
    last: usageOf(info.last_token_usage),
  };
}

export function usageOf(v: unknown): OpenAiUsage | null {
  if (!isObject(v)) return null;
  const details = isObject(v.input_tokens_details) ? v.input_tokens_details : isObject(v.prompt_tokens_details) ? v.prompt_tokens_details : {};
  return {
    input: countOf(v, 'input_tokens', 'prompt_tokens'),
    cached: typeof v.cached_input_tokens === 'number' || typeof v.cached_tokens === 'number' ? countOf(v, 'cached_input_tokens', 'cached_tokens') : count(details.cached_tokens),
    output: countOf(v, 'output_tokens', 'completion_tokens'),
    reasoning: countOf(v, 'reasoning_output_tokens', 'reasoning_tokens'),
  };
}
