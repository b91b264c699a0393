import type { AnthropicResponse, AnthropicResponseBlock } from '../anthropic-types.js';
import { anthropicToolId } from '../ids.js';
import { parseToolArguments } from '../media.js';
import type { ResponsesOutputItem, ResponsesResponse } from './responses-types.js';
import type { ToolNames } from './tool-names.js';
import { anthropicUsageFromResponses, stopReasonOf } from './usage.js';

export interface ResponsesToAnthropicOptions {
  /** The model name the client asked for; defaults to the response's. */
  model?: string;
  /** From the request plan: shortened tool names back to the client's. */
  toolNames?: ToolNames;
}

/** A finished Responses answer → an Anthropic message, blocks in the order the model produced them. */
export function responsesToAnthropic(response: ResponsesResponse, options: ResponsesToAnthropicOptions = {}): AnthropicResponse {
  const content: AnthropicResponseBlock[] = [];
  let sawToolCall = false;
  for (const item of response.output ?? []) {
    const blocks = blocksOf(item, options, content.length);
    if (item.type === 'function_call') sawToolCall = true;
    content.push(...blocks);
  }
  return {
    id: anthropicMessageIdFor(response.id),
    type: 'message',
    role: 'assistant',
    model: options.model ?? response.model ?? '',
    content,
    stop_reason: stopReasonOf(response, sawToolCall),
    stop_sequence: null,
    usage: anthropicUsageFromResponses(response.usage),
  };
}

/** `resp_abc` → `msg_abc`: the same upstream answer always gives the same message id. */
export function anthropicMessageIdFor(responseId: string | undefined): string {
  if (!responseId) return `msg_${Date.now().toString(36)}`;
  return `msg_${responseId.replace(/^resp_/, '')}`;
}

function blocksOf(item: ResponsesOutputItem, options: ResponsesToAnthropicOptions, position: number): AnthropicResponseBlock[] {
  if (item.type === 'reasoning') {
    const summary = Array.isArray(item.summary) ? item.summary : [];
    const thinking = summary.map((s) => (typeof s?.text === 'string' ? s.text : '')).join('\n\n');
    const signature = typeof item.encrypted_content === 'string' ? item.encrypted_content : '';
    return thinking.length > 0 || signature.length > 0 ? [{ type: 'thinking', thinking, signature }] : [];
  }
  if (item.type === 'message') {
    const parts = Array.isArray(item.content) ? (item.content as Array<{ type?: unknown; text?: unknown; refusal?: unknown }>) : [];
    const text = parts.map((p) => (typeof p.text === 'string' ? p.text : typeof p.refusal === 'string' ? p.refusal : '')).join('');
    return text.length > 0 ? [{ type: 'text', text }] : [];
  }
  if (item.type === 'function_call') {
    const callId = typeof item.call_id === 'string' ? item.call_id : undefined;
    const name = typeof item.name === 'string' ? item.name : '';
    return [
      {
        type: 'tool_use',
        id: anthropicToolId(callId, `toolu_${position}`),
        name: options.toolNames?.client(name) ?? name,
        input: parseToolArguments(typeof item.arguments === 'string' ? item.arguments : undefined),
      },
    ];
  }
  return []; // web search calls and other server-side items have no client-side block
}
