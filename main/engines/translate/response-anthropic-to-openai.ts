import type { AnthropicResponse } from './anthropic-types.js';
import { openAICompletionId } from './ids.js';
import type { OpenAIResponse, OpenAIResponseMessage, OpenAIToolCall } from './openai-types.js';
import { openAIFinishReason } from './reasons.js';
import { openAIUsageFromAnthropic } from './usage.js';

export interface AnthropicToOpenAIResponseOptions {
  /** Model name the client asked for. Defaults to the upstream's `model`. */
  model?: string;
  /** `created` in Unix seconds; defaults to now (tests pass a fixed value). */
  created?: number;
}

/**
 * Anthropic message → OpenAI chat.completion. Thinking text is returned as `reasoning_content`
 * (the common OpenAI-compatible extension); signatures and redacted thinking are not exposed.
 */
export function anthropicResponseToOpenAI(res: AnthropicResponse, options: AnthropicToOpenAIResponseOptions = {}): OpenAIResponse {
  const texts: string[] = [];
  const reasoning: string[] = [];
  const toolCalls: OpenAIToolCall[] = [];
  for (const block of res.content ?? []) {
    if (block.type === 'text') texts.push(block.text);
    else if (block.type === 'thinking') reasoning.push(block.thinking);
    else if (block.type === 'tool_use') {
      toolCalls.push({ id: block.id, type: 'function', function: { name: block.name, arguments: JSON.stringify(block.input ?? {}) } });
    }
  }
  const message: OpenAIResponseMessage = { role: 'assistant', content: texts.length > 0 ? texts.join('') : null };
  if (reasoning.length > 0) message.reasoning_content = reasoning.join('');
  if (toolCalls.length > 0) message.tool_calls = toolCalls;
  return {
    id: openAICompletionId(res.id),
    object: 'chat.completion',
    created: options.created ?? Math.floor(Date.now() / 1000),
    model: options.model ?? res.model,
    choices: [{ index: 0, message, finish_reason: openAIFinishReason(res.stop_reason), logprobs: null }],
    usage: openAIUsageFromAnthropic(res.usage),
  };
}
