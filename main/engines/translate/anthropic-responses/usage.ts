import type { AnthropicStopReason, AnthropicUsage } from '../anthropic-types.js';
import type { ResponsesResponse, ResponsesUsage } from './responses-types.js';

/**
 * Responses `input_tokens` include the cached ones; Anthropic reports cache reads beside its
 * `input_tokens`. Reasoning tokens are part of `output_tokens` on both sides.
 */
export function anthropicUsageFromResponses(usage: ResponsesUsage | null | undefined): AnthropicUsage {
  const cached = count(usage?.input_tokens_details?.cached_tokens);
  return {
    input_tokens: Math.max(0, count(usage?.input_tokens) - cached),
    output_tokens: count(usage?.output_tokens),
    cache_creation_input_tokens: 0,
    cache_read_input_tokens: cached,
  };
}

/** A finished response → the Anthropic stop reason: tool calls first, then a cut for length. */
export function stopReasonOf(response: ResponsesResponse | undefined, sawToolCall: boolean): AnthropicStopReason {
  if (sawToolCall) return 'tool_use';
  if (response?.status === 'incomplete') {
    const reason = response.incomplete_details?.reason;
    if (reason === 'max_output_tokens') return 'max_tokens';
    if (reason === 'content_filter') return 'refusal';
  }
  return 'end_turn';
}

/** Only non-negative whole numbers are token counts; anything else an upstream sends counts as 0. */
function count(value: unknown): number {
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= 0 ? value : 0;
}
