import type { AnthropicErrorBody } from './anthropic-types.js';
import type { OpenAIErrorBody } from './openai-types.js';

/** Error types Anthropic documents, by HTTP status. */
export function anthropicErrorType(status: number): string {
  switch (status) {
    case 400:
      return 'invalid_request_error';
    case 401:
      return 'authentication_error';
    case 402:
      return 'billing_error';
    case 403:
      return 'permission_error';
    case 404:
      return 'not_found_error';
    case 413:
      return 'request_too_large';
    case 429:
      return 'rate_limit_error';
    case 504:
      return 'timeout_error';
    case 529:
      return 'overloaded_error';
    default:
      return status >= 500 ? 'api_error' : 'invalid_request_error';
  }
}

/** OpenAI error type and code by HTTP status (the pairs OpenAI-compatible proxies use). */
export function openAIErrorTypeAndCode(status: number): { type: string; code: string | null } {
  switch (status) {
    case 401:
      return { type: 'authentication_error', code: 'invalid_api_key' };
    case 403:
      return { type: 'permission_error', code: 'insufficient_quota' };
    case 404:
      return { type: 'invalid_request_error', code: 'model_not_found' };
    case 429:
      return { type: 'rate_limit_error', code: 'rate_limit_exceeded' };
    default:
      return status >= 500 ? { type: 'server_error', code: 'internal_server_error' } : { type: 'invalid_request_error', code: null };
  }
}

export function anthropicError(status: number, message: string, type = anthropicErrorType(status)): AnthropicErrorBody {
  return { type: 'error', error: { type, message } };
}

export function openAIError(status: number, message: string, override: { type?: string; code?: string | null } = {}): OpenAIErrorBody {
  const base = openAIErrorTypeAndCode(status);
  return { error: { message, type: override.type ?? base.type, param: null, code: override.code !== undefined ? override.code : base.code } };
}

/** What any upstream error body says, whichever format (or none) it is in. */
export interface ParsedError {
  message: string;
  /** The upstream's own type string, when it gave one. */
  type?: string;
  code?: string | null;
}

/**
 * Reads an upstream error body of either format, or plain text / HTML from a gateway, so the
 * message reaches the client in its own format instead of a parse failure.
 */
export function parseErrorBody(text: string): ParsedError {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return { message: plainMessage(text) };
  }
  const err = (parsed as { error?: unknown } | null)?.error;
  if (err && typeof err === 'object') {
    const e = err as { message?: unknown; type?: unknown; code?: unknown };
    return {
      message: typeof e.message === 'string' ? e.message : JSON.stringify(err),
      ...(typeof e.type === 'string' ? { type: e.type } : {}),
      ...(typeof e.code === 'string' || typeof e.code === 'number' ? { code: String(e.code) } : {}),
    };
  }
  if (typeof err === 'string') return { message: err };
  const message = (parsed as { message?: unknown } | null)?.message;
  return { message: typeof message === 'string' ? message : text.trim().slice(0, 2000) };
}

/** Gateways answer with HTML pages; the page title says it best ("502 Bad Gateway"). */
function plainMessage(text: string): string {
  const trimmed = text.trim();
  if (trimmed.startsWith('<')) {
    const title = /<title>([^<]*)<\/title>/i.exec(trimmed)?.[1]?.trim();
    const stripped = trimmed.replace(/<[^>]*>/g, ' ').replace(/\s+/g, ' ').trim();
    return title || stripped.slice(0, 500) || 'Upstream request failed';
  }
  return trimmed.slice(0, 2000) || 'Upstream request failed';
}

/** Types only Anthropic uses; an OpenAI client gets the status-derived OpenAI type instead. */
const anthropicOnly = new Set(['not_found_error', 'request_too_large', 'api_error', 'overloaded_error', 'billing_error', 'timeout_error']);

/**
 * Any upstream error body → Anthropic error body, for the given status. The upstream's type is
 * kept only when it is the Anthropic type of that very status (OpenAI says
 * `invalid_request_error` for a bad key, which Anthropic clients must see as authentication_error).
 */
export function toAnthropicError(status: number, upstreamBody: string): AnthropicErrorBody {
  const parsed = parseErrorBody(upstreamBody);
  const derived = anthropicErrorType(status);
  const type = parsed.type && statusForAnthropicErrorType(parsed.type) === status ? parsed.type : derived;
  return anthropicError(status, parsed.message, type);
}

/** Any upstream error body → OpenAI error body, for the given status. */
export function toOpenAIError(status: number, upstreamBody: string): OpenAIErrorBody {
  const parsed = parseErrorBody(upstreamBody);
  const base = openAIErrorTypeAndCode(status);
  const type = parsed.type && !anthropicOnly.has(parsed.type) ? parsed.type : base.type;
  return openAIError(status, parsed.message, { type, code: parsed.code ?? base.code });
}

/** Anthropic error body → OpenAI error body (structured input, same status). */
export function anthropicErrorToOpenAI(status: number, body: AnthropicErrorBody): OpenAIErrorBody {
  return toOpenAIError(status, JSON.stringify(body));
}

/** OpenAI error body → Anthropic error body (structured input, same status). */
export function openAIErrorToAnthropic(status: number, body: OpenAIErrorBody): AnthropicErrorBody {
  return toAnthropicError(status, JSON.stringify(body));
}

/** HTTP status for an Anthropic error type (used for `event: error` frames, which carry no status). */
export function statusForAnthropicErrorType(type: string | undefined): number {
  const table: Record<string, number> = {
    invalid_request_error: 400,
    authentication_error: 401,
    billing_error: 402,
    permission_error: 403,
    not_found_error: 404,
    request_too_large: 413,
    rate_limit_error: 429,
    timeout_error: 504,
    overloaded_error: 529,
  };
  return (type && table[type]) || 500;
}
