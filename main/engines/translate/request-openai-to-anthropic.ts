import type {
  AnthropicContentBlock,
  AnthropicMessage,
  AnthropicRequest,
  AnthropicTextBlock,
  AnthropicThinkingConfig,
  AnthropicTool,
  AnthropicToolChoice,
} from './anthropic-types.js';
import { anthropicToolId } from './ids.js';
import { parseDataUrl, parseToolArguments } from './media.js';
import type { OpenAIContentPart, OpenAIMessage, OpenAIReasoningEffort, OpenAIRequest } from './openai-types.js';

export interface OpenAIToAnthropicRequestOptions {
  /** Model id to send upstream (after alias resolution); defaults to the request's model. */
  model?: string;
  /** Anthropic requires max_tokens; used when the OpenAI client sent none. Default 8192. */
  defaultMaxTokens?: number;
}

/** Thinking budgets for OpenAI reasoning efforts (Anthropic's minimum budget is 1 024). */
const budgetFor: Partial<Record<OpenAIReasoningEffort, number>> = { low: 2048, medium: 8192, high: 24_576, xhigh: 32_000 };

/**
 * OpenAI Chat Completions request → Anthropic Messages request.
 * System and developer messages become the system prompt; `tool` messages become tool_result
 * blocks in a user turn; `reasoning_content` of earlier assistant turns is dropped (Anthropic
 * rejects thinking blocks without its own signature); temperature and top_p are clamped to
 * Anthropic's 0..1 and left out when thinking is on (Anthropic refuses them together);
 * `n`, `response_format`, penalties and `seed` have no Anthropic equivalent and are dropped.
 */
export function openAIRequestToAnthropic(req: OpenAIRequest, options: OpenAIToAnthropicRequestOptions = {}): AnthropicRequest {
  const maxTokens = req.max_completion_tokens ?? req.max_tokens ?? options.defaultMaxTokens ?? 8192;
  const out: AnthropicRequest = { model: options.model ?? req.model, messages: mapMessages(req.messages), max_tokens: maxTokens };
  const system = systemOf(req.messages);
  if (system !== undefined) out.system = system;
  const stop = typeof req.stop === 'string' ? [req.stop] : req.stop;
  if (stop?.length) out.stop_sequences = stop;
  const tools = mapTools(req);
  const choice = tools.length > 0 ? mapToolChoice(req) : undefined;
  if (tools.length > 0) out.tools = tools;
  if (choice) out.tool_choice = choice;
  // Anthropic refuses thinking together with a forced tool; the client's explicit tool demand wins.
  const forcesTool = choice?.type === 'any' || choice?.type === 'tool';
  const thinking = forcesTool ? undefined : thinkingFor(req.reasoning_effort, maxTokens);
  if (thinking) out.thinking = thinking;
  else {
    if (typeof req.temperature === 'number') out.temperature = clampUnit(req.temperature);
    if (typeof req.top_p === 'number') out.top_p = clampUnit(req.top_p);
  }
  if (req.user) out.metadata = { user_id: req.user };
  if (req.stream) out.stream = true;
  return out;
}

/** The budget must stay below max_tokens; a budget under the 1 024 minimum means no thinking. */
export function thinkingFor(effort: OpenAIReasoningEffort | null | undefined, maxTokens: number): AnthropicThinkingConfig | undefined {
  const wanted = effort ? budgetFor[effort] : undefined;
  if (wanted === undefined) return undefined;
  const budget = Math.min(wanted, maxTokens - 1);
  return budget >= 1024 ? { type: 'enabled', budget_tokens: budget } : undefined;
}

function clampUnit(value: number): number {
  return Math.min(1, Math.max(0, value));
}

function textOf(content: string | OpenAIContentPart[] | null | undefined): string {
  if (content == null) return '';
  if (typeof content === 'string') return content;
  return content.map((p) => (p.type === 'text' ? p.text : p.type === 'refusal' ? p.refusal : '')).join('');
}

function systemOf(messages: OpenAIMessage[]): string | AnthropicTextBlock[] | undefined {
  const texts = messages.flatMap((m) => (m.role === 'system' || m.role === 'developer' ? [textOf(m.content)] : []));
  if (texts.length === 0) return undefined;
  return texts.length === 1 ? texts[0] : texts.map((text) => ({ type: 'text', text }));
}

/** Anthropic wants alternating turns, so consecutive same-role messages merge into one. */
function mapMessages(messages: OpenAIMessage[]): AnthropicMessage[] {
  const out: AnthropicMessage[] = [];
  let toolCounter = 0;
  for (const message of messages) {
    let mapped: AnthropicMessage | undefined;
    switch (message.role) {
      case 'system':
      case 'developer':
        continue;
      case 'user':
        mapped = { role: 'user', content: userContent(message.content) };
        break;
      case 'tool':
        mapped = { role: 'user', content: [{ type: 'tool_result', tool_use_id: anthropicToolId(message.tool_call_id, 'toolu_missing'), content: textOf(message.content) }] };
        break;
      case 'function':
        mapped = { role: 'user', content: [{ type: 'tool_result', tool_use_id: anthropicToolId(message.name, 'toolu_missing'), content: message.content ?? '' }] };
        break;
      case 'assistant': {
        const blocks: AnthropicContentBlock[] = [];
        const text = textOf(message.content) || message.refusal || '';
        if (text.length > 0) blocks.push({ type: 'text', text });
        for (const call of message.tool_calls ?? []) {
          toolCounter += 1;
          blocks.push({ type: 'tool_use', id: anthropicToolId(call.id, `toolu_${toolCounter}`), name: call.function.name, input: parseToolArguments(call.function.arguments) });
        }
        if (message.function_call) {
          blocks.push({ type: 'tool_use', id: anthropicToolId(message.function_call.name, 'toolu_fn'), name: message.function_call.name, input: parseToolArguments(message.function_call.arguments) });
        }
        if (blocks.length === 0) continue; // Anthropic rejects empty assistant turns
        mapped = { role: 'assistant', content: blocks };
        break;
      }
    }
    appendMerged(out, mapped);
  }
  return out;
}

function appendMerged(out: AnthropicMessage[], next: AnthropicMessage): void {
  const last = out[out.length - 1];
  if (!last || last.role !== next.role) {
    out.push(next);
    return;
  }
  const asBlocks = (c: AnthropicMessage['content']): AnthropicContentBlock[] => (typeof c === 'string' ? [{ type: 'text', text: c }] : c);
  last.content = [...asBlocks(last.content), ...asBlocks(next.content)];
}

function userContent(content: string | OpenAIContentPart[]): string | AnthropicContentBlock[] {
  if (typeof content === 'string') return content;
  return content.flatMap((part): AnthropicContentBlock[] => {
    switch (part.type) {
      case 'text':
        return [{ type: 'text', text: part.text }];
      case 'image_url': {
        const inline = parseDataUrl(part.image_url.url);
        return [{ type: 'image', source: inline ? { type: 'base64', media_type: inline.mediaType, data: inline.data } : { type: 'url', url: part.image_url.url } }];
      }
      case 'file': {
        const inline = part.file.file_data ? parseDataUrl(part.file.file_data) : null;
        if (!inline) return [];
        return [{ type: 'document', source: { type: 'base64', media_type: inline.mediaType, data: inline.data }, ...(part.file.filename ? { title: part.file.filename } : {}) }];
      }
      default:
        return []; // audio has no Anthropic equivalent
    }
  });
}

function mapTools(req: OpenAIRequest): AnthropicTool[] {
  const fns = [...(req.tools ?? []).filter((t) => t.type === 'function').map((t) => t.function), ...(req.functions ?? [])];
  return fns.map((fn) => ({
    name: fn.name,
    ...(fn.description !== undefined ? { description: fn.description } : {}),
    input_schema: fn.parameters ?? { type: 'object', properties: {} },
  }));
}

function mapToolChoice(req: OpenAIRequest): AnthropicToolChoice | undefined {
  const noParallel = req.parallel_tool_calls === false ? { disable_parallel_tool_use: true } : {};
  const choice = req.tool_choice ?? legacyChoice(req.function_call);
  if (choice === 'none') return { type: 'none' };
  if (choice === 'required') return { type: 'any', ...noParallel };
  if (typeof choice === 'object') return { type: 'tool', name: choice.function.name, ...noParallel };
  if (choice === 'auto' || req.parallel_tool_calls === false) return { type: 'auto', ...noParallel };
  return undefined;
}

function legacyChoice(call: OpenAIRequest['function_call']): OpenAIRequest['tool_choice'] {
  if (call === undefined) return undefined;
  return typeof call === 'string' ? call : { type: 'function', function: { name: call.name } };
}
