import type { OpenAIChunk } from './openai-types.js';

/**
 * The chunk nearly every token of an OpenAI-format stream comes in: one choice whose delta is only
 * `content` (the first one may say `role: "assistant"` too), no finish yet, and besides
 * id/object/created/model only flat string-or-null fields (service_tier, system_fingerprint,
 * obfuscation, usage: null). Matched whole, in OpenAI's key order. The content literal is group 4
 * when it holds nothing JSON.stringify would escape or JSON.parse refuse (no backslash, control
 * character or surrogate: its text, quoted, is the literal itself), else group 5.
 */
const CONTENT_DELTA =
  /^\{"id":"([^"\\]*)","object":"chat\.completion\.chunk","created":(\d+),"model":"([^"\\]*)"(?:,"[a-z_]+":(?:null|"[^"\\]*"))*,"choices":\[\{"index":0,"delta":\{(?:"role":"assistant",)?"content":(?:("[^"\\\u0000-\u001f\ud800-\udfff]*")|("(?:[^"\\]|\\.)*"))\}(?:,"logprobs":null)?,"finish_reason":null(?:,"logprobs":null)?\}\](?:,"[a-z_]+":(?:null|"[^"\\]*"))*\}$/;

/** A token chunk as matched: what the translator reads of it, and its content as the upstream wrote it. */
export interface ContentDelta {
  id: string;
  created: number;
  model: string;
  /** The content's JSON string literal, quotes included. */
  literal: string;
  /** True when `literal` is exactly JSON.stringify of the content, so it can be written out as it is. */
  verbatim: boolean;
}

/**
 * A token chunk read without JSON.parse (issue 19 point 6: a parse of each ~150-byte event was
 * three quarters of translating a stream). Undefined for any other line: parse it.
 */
export function matchContentDelta(data: string): ContentDelta | undefined {
  const m = CONTENT_DELTA.exec(data);
  if (!m) return undefined;
  const verbatim = m[4] !== undefined;
  return { id: m[1]!, created: Number(m[2]), model: m[3]!, literal: verbatim ? m[4]! : m[5]!, verbatim };
}

/**
 * The same OpenAIChunk JSON.parse would give for what the translator reads (id, model,
 * choices[0].delta.content, finish_reason; no usage); undefined when the literal is not valid
 * JSON (a raw control character), which JSON.parse of the whole line refuses too.
 */
export function contentChunk(token: ContentDelta): OpenAIChunk | undefined {
  let content: string;
  if (token.verbatim) content = token.literal.slice(1, -1);
  else {
    try {
      content = JSON.parse(token.literal) as string;
    } catch {
      return undefined;
    }
  }
  return { id: token.id, object: 'chat.completion.chunk', created: token.created, model: token.model, choices: [{ index: 0, delta: { content }, finish_reason: null }] };
}
