import type { AnthropicStopReason } from './anthropic-types.js';
import type { OpenAIFinishReason } from './openai-types.js';

/**
 * OpenAI finish_reason → Anthropic stop_reason. `content_filter` becomes `end_turn`, as the
 * reference proxy does: Claude Code treats `refusal` as a hard stop with a canned message, while a
 * filtered OpenAI answer usually still carries usable text. A `stop` that ended in tool calls is
 * reported as `tool_use` because several OpenAI-compatible servers say `stop` there.
 */
export function anthropicStopReason(finish: string | null | undefined, sawToolCalls: boolean): AnthropicStopReason {
  if (sawToolCalls && (finish === 'stop' || finish === 'tool_calls' || finish === 'function_call' || !finish)) {
    return 'tool_use';
  }
  switch (finish) {
    case 'length':
      return 'max_tokens';
    case 'tool_calls':
    case 'function_call':
      return 'tool_use';
    default:
      return 'end_turn';
  }
}

/** Anthropic stop_reason → OpenAI finish_reason. */
export function openAIFinishReason(stop: string | null | undefined): OpenAIFinishReason {
  switch (stop) {
    case 'max_tokens':
    case 'model_context_window_exceeded':
      return 'length';
    case 'tool_use':
      return 'tool_calls';
    case 'refusal':
      return 'content_filter';
    default:
      return 'stop';
  }
}
