import type { AnthropicResponse, AnthropicResponseBlock } from './anthropic-types.js';
import { anthropicMessageId, anthropicToolId } from './ids.js';
import { parseToolArguments } from './media.js';
import type { OpenAIResponse } from './openai-types.js';
import { anthropicStopReason } from './reasons.js';
import { anthropicUsageFromOpenAI } from './usage.js';

export interface OpenAIToAnthropicResponseOptions {
  /** Model name the client asked for; clients compare it. Defaults to the upstream's `model`. */
  model?: string;
}

/**
 * OpenAI chat.completion → Anthropic message. Reasoning text becomes a leading `thinking` block
 * with an empty signature (none exists; the request mapper drops it again on the way back).
 * Only the first choice is used: Anthropic has no `n`.
 */
export function openAIResponseToAnthropic(res: OpenAIResponse, options: OpenAIToAnthropicResponseOptions = {}): AnthropicResponse {
  const id = anthropicMessageId(res.id);
  const choice = res.choices[0];
  const message = choice?.message;
  const content: AnthropicResponseBlock[] = [];
  const reasoning = message?.reasoning_content ?? message?.reasoning;
  if (reasoning) content.push({ type: 'thinking', thinking: reasoning, signature: '' });
  const text = message?.content ?? message?.refusal;
  if (text) content.push({ type: 'text', text });
  const calls = message?.tool_calls ?? [];
  calls.forEach((call, i) => {
    content.push({ type: 'tool_use', id: anthropicToolId(call.id, `toolu_${id.slice(4)}_${i}`), name: call.function.name, input: parseToolArguments(call.function.arguments) });
  });
  if (message?.function_call) {
    const fn = message.function_call;
    content.push({ type: 'tool_use', id: `toolu_${id.slice(4)}_fn`, name: fn.name, input: parseToolArguments(fn.arguments) });
  }
  const sawTools = calls.length > 0 || Boolean(message?.function_call);
  return {
    id,
    type: 'message',
    role: 'assistant',
    model: options.model ?? res.model,
    content,
    stop_reason: anthropicStopReason(choice?.finish_reason, sawTools),
    stop_sequence: null,
    usage: anthropicUsageFromOpenAI(res.usage),
  };
}
