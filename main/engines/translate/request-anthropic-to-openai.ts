import type {
  AnthropicContentBlock,
  AnthropicDocumentBlock,
  AnthropicEffort,
  AnthropicImageBlock,
  AnthropicMessage,
  AnthropicRequest,
  AnthropicThinkingConfig,
  AnthropicTool,
  AnthropicToolChoice,
} from './anthropic-types.js';
import { toDataUrl } from './media.js';
import { splitToolResult } from './tool-result.js';
import type {
  OpenAIContentPart,
  OpenAIMessage,
  OpenAIReasoningEffort,
  OpenAIRequest,
  OpenAITool,
  OpenAIToolCall,
  OpenAIToolChoice,
} from './openai-types.js';

export interface AnthropicToOpenAIRequestOptions {
  /** Model id to send upstream (after alias resolution); defaults to the request's model. */
  model?: string;
  /** Newer OpenAI reasoning models accept only `max_completion_tokens`. Default `max_tokens`. */
  maxTokensField?: 'max_tokens' | 'max_completion_tokens';
  /** `anthropicToolsToOpenAI(req.tools)` made already (the engine keeps it between requests): used as it is. */
  mappedTools?: OpenAITool[];
}

/**
 * Anthropic Messages request → OpenAI Chat Completions request.
 * Thinking signatures and redacted thinking are dropped (they only verify against the vendor that
 * made them); server tools (web search, code execution) have no OpenAI equivalent and are dropped;
 * `top_k` is dropped. Streaming requests ask for usage so the client still gets token counts.
 */
export function anthropicRequestToOpenAI(req: AnthropicRequest, options: AnthropicToOpenAIRequestOptions = {}): OpenAIRequest {
  const out: OpenAIRequest = { model: options.model ?? req.model, messages: mapMessages(req) };
  out[options.maxTokensField ?? 'max_tokens'] = req.max_tokens;
  if (req.stop_sequences?.length) out.stop = req.stop_sequences;
  if (req.temperature !== undefined) out.temperature = req.temperature;
  if (req.top_p !== undefined) out.top_p = req.top_p;
  const tools = options.mappedTools ?? anthropicToolsToOpenAI(req.tools ?? []);
  if (tools.length > 0) {
    out.tools = tools;
    const choice = mapToolChoice(req.tool_choice);
    if (choice !== undefined) out.tool_choice = choice;
    if (req.tool_choice && 'disable_parallel_tool_use' in req.tool_choice && req.tool_choice.disable_parallel_tool_use) {
      out.parallel_tool_calls = false;
    }
  }
  const effort = reasoningEffortFor(req.thinking, req.output_config?.effort);
  if (effort) out.reasoning_effort = effort;
  if (req.metadata?.user_id) out.user = req.metadata.user_id;
  if (req.stream) {
    out.stream = true;
    out.stream_options = { include_usage: true };
  }
  return out;
}

/** Tool definitions → OpenAI function tools; server tools (web search, code execution) are dropped. */
export function anthropicToolsToOpenAI(tools: AnthropicTool[]): OpenAITool[] {
  return tools.filter(isClientTool).map(mapTool);
}

/**
 * Claude Code's budgets: "think" 4 000, "think hard" 10 000, "ultrathink" 31 999; the minimum is
 * 1 024. Small budgets map to low effort, the big one to high. Adaptive thinking carries no budget:
 * its `output_config.effort` maps one to one (`max`, which OpenAI lacks, to `high`); without an
 * effort the upstream model's own default stands.
 */
export function reasoningEffortFor(thinking: AnthropicThinkingConfig | undefined, effort?: AnthropicEffort): OpenAIReasoningEffort | undefined {
  if (thinking?.type === 'adaptive') return effort === undefined ? undefined : effortLevels[effort];
  if (!thinking || thinking.type !== 'enabled') return undefined;
  if (thinking.budget_tokens <= 2048) return 'low';
  if (thinking.budget_tokens <= 16_000) return 'medium';
  return 'high';
}

const effortLevels: Record<AnthropicEffort, OpenAIReasoningEffort | undefined> = { low: 'low', medium: 'medium', high: 'high', max: 'high' };

function mapMessages(req: AnthropicRequest): OpenAIMessage[] {
  const out: OpenAIMessage[] = [];
  const system = systemText(req.system);
  if (system !== undefined) out.push({ role: 'system', content: system });
  for (const message of req.messages) {
    if (message.role === 'assistant') out.push(mapAssistant(message));
    else if (message.role === 'system') out.push(...mapSystem(message));
    else out.push(...mapUser(message));
  }
  return out;
}

/** A mid-conversation system message stays one, in place: OpenAI accepts system messages anywhere. */
function mapSystem(message: AnthropicMessage): OpenAIMessage[] {
  const text = typeof message.content === 'string' ? message.content : message.content.flatMap((b) => (b.type === 'text' ? [b.text] : [])).join('\n\n');
  return text.length > 0 ? [{ role: 'system', content: text }] : [];
}

function systemText(system: AnthropicRequest['system']): string | undefined {
  if (system === undefined) return undefined;
  if (typeof system === 'string') return system.length > 0 ? system : undefined;
  const text = system.map((b) => b.text).join('\n\n');
  return text.length > 0 ? text : undefined;
}

function blocksOf(message: AnthropicMessage): AnthropicContentBlock[] {
  return typeof message.content === 'string' ? [{ type: 'text', text: message.content }] : message.content;
}

/**
 * Tool results become `tool` messages placed first (OpenAI wants them right after the assistant's
 * tool_calls); images inside tool results cannot ride on a tool message, so they move into the
 * user message that follows.
 */
function mapUser(message: AnthropicMessage): OpenAIMessage[] {
  if (typeof message.content === 'string') return [{ role: 'user', content: message.content }];
  const toolMessages: OpenAIMessage[] = [];
  const parts: OpenAIContentPart[] = [];
  for (const block of message.content) {
    if (block.type === 'tool_result') {
      const { text, media } = splitToolResult(block, (item) => (item.type === 'image' ? imagePart(item) : documentPart(item)));
      toolMessages.push({ role: 'tool', tool_call_id: block.tool_use_id, content: text });
      parts.push(...media);
      continue;
    }
    const part = userPart(block);
    if (part) parts.push(part);
  }
  if (parts.length === 0) return toolMessages;
  const only = parts[0];
  const content = parts.length === 1 && only?.type === 'text' ? only.text : parts;
  return [...toolMessages, { role: 'user', content }];
}

function userPart(block: AnthropicContentBlock): OpenAIContentPart | undefined {
  switch (block.type) {
    case 'text':
      return { type: 'text', text: block.text };
    case 'image':
      return imagePart(block);
    case 'document':
      return documentPart(block);
    default:
      // thinking / tool_use blocks never belong to a user turn; nothing sensible to send.
      return undefined;
  }
}

function imagePart(block: AnthropicImageBlock): OpenAIContentPart {
  const url = block.source.type === 'base64' ? toDataUrl(block.source.media_type, block.source.data) : block.source.url;
  return { type: 'image_url', image_url: { url } };
}

function documentPart(block: AnthropicDocumentBlock): OpenAIContentPart {
  const source = block.source;
  if (source.type === 'text') return { type: 'text', text: source.data };
  if (source.type === 'url') return { type: 'text', text: source.url };
  return { type: 'file', file: { filename: block.title ?? 'document.pdf', file_data: toDataUrl(source.media_type, source.data) } };
}

function mapAssistant(message: AnthropicMessage): OpenAIMessage {
  const texts: string[] = [];
  const reasoning: string[] = [];
  const toolCalls: OpenAIToolCall[] = [];
  for (const block of blocksOf(message)) {
    if (block.type === 'text') texts.push(block.text);
    else if (block.type === 'thinking') reasoning.push(block.thinking);
    else if (block.type === 'tool_use') {
      toolCalls.push({ id: block.id, type: 'function', function: { name: block.name, arguments: JSON.stringify(block.input ?? {}) } });
    }
  }
  const text = texts.join('');
  return {
    role: 'assistant',
    content: text.length > 0 || toolCalls.length === 0 ? text : null,
    ...(reasoning.length > 0 ? { reasoning_content: reasoning.join('') } : {}),
    ...(toolCalls.length > 0 ? { tool_calls: toolCalls } : {}),
  };
}

function isClientTool(tool: AnthropicTool): boolean {
  return tool.type === undefined || tool.type === 'custom';
}

function mapTool(tool: AnthropicTool): OpenAITool {
  return {
    type: 'function',
    function: {
      name: tool.name,
      ...(tool.description !== undefined ? { description: tool.description } : {}),
      parameters: tool.input_schema ?? { type: 'object', properties: {} },
    },
  };
}

function mapToolChoice(choice: AnthropicToolChoice | undefined): OpenAIToolChoice | undefined {
  switch (choice?.type) {
    case 'auto':
      return 'auto';
    case 'any':
      return 'required';
    case 'none':
      return 'none';
    case 'tool':
      return { type: 'function', function: { name: choice.name } };
    default:
      return undefined;
  }
}
