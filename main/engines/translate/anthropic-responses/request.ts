import type {
  AnthropicContentBlock,
  AnthropicDocumentBlock,
  AnthropicImageBlock,
  AnthropicMessage,
  AnthropicRequest,
  AnthropicTool,
  AnthropicToolChoice,
} from '../anthropic-types.js';
import { toDataUrl } from '../media.js';
import { splitToolResult } from '../tool-result.js';
import { reasoningEffortFor } from '../request-anthropic-to-openai.js';
import type { ResponsesFunctionTool, ResponsesInputContent, ResponsesInputItem, ResponsesRequest, ResponsesToolChoice, ResponsesWebSearchTool } from './responses-types.js';
import { shortenCallId, ToolNames } from './tool-names.js';

export interface AnthropicToResponsesOptions {
  /** Model id to send upstream (after alias resolution); defaults to the request's model. */
  model?: string;
  /** The prompt cache key; defaults to the Claude Code session in `metadata.user_id`. */
  promptCacheKey?: string;
  /**
   * `req.tools` mapped already (`anthropicToolsToResponses`, kept by the engine per distinct tools
   * bytes): used in place of mapping `req.tools`, whose client tool names are `clientToolNames`.
   */
  mappedTools?: { tools: unknown[]; clientToolNames: string[] };
}

export interface ResponsesRequestPlan {
  body: ResponsesRequest;
  /** Maps shortened tool names back to the client's; the response mappers need it. */
  toolNames: ToolNames;
}

/**
 * Anthropic Messages request → the ChatGPT backend's Responses request (always streamed, never
 * stored). What has no Responses equivalent is dropped: `max_tokens` (the backend refuses
 * `max_output_tokens`), `stop_sequences`, `temperature`, `top_p`, `top_k`, server tools other than
 * web search, and thinking blocks the backend did not sign (see `reasoningItem`).
 */
export function anthropicRequestToResponses(req: AnthropicRequest, options: AnthropicToResponsesOptions = {}): ResponsesRequestPlan {
  const toolNames = new ToolNames(options.mappedTools ? options.mappedTools.clientToolNames : clientToolNames(req.tools ?? []));
  const body: ResponsesRequest = {
    model: options.model ?? req.model,
    instructions: systemText(req.system),
    input: mapMessages(req.messages, toolNames),
    store: false,
    stream: true,
    include: ['reasoning.encrypted_content'],
  };
  const tools = options.mappedTools ? (options.mappedTools.tools as Array<ResponsesFunctionTool | ResponsesWebSearchTool>) : mapTools(req.tools ?? [], toolNames);
  if (tools.length > 0) {
    body.tools = tools;
    const choice = mapToolChoice(req.tool_choice, toolNames);
    if (choice !== undefined) body.tool_choice = choice;
    body.parallel_tool_calls = !(req.tool_choice && 'disable_parallel_tool_use' in req.tool_choice && req.tool_choice.disable_parallel_tool_use);
  }
  const effort = reasoningEffortFor(req.thinking, req.output_config?.effort);
  if (effort) body.reasoning = { effort, summary: 'auto' };
  const cacheKey = options.promptCacheKey ?? claudeCodeSession(req.metadata?.user_id);
  if (cacheKey) body.prompt_cache_key = cacheKey;
  return { body, toolNames };
}

/**
 * Claude Code's session id from `metadata.user_id`: newer versions send a JSON object with
 * `session_id`, older ones `user_<hash>_account_<uuid>_session_<uuid>`. One cache key per session
 * keeps the backend's prompt cache warm for that conversation only.
 */
export function claudeCodeSession(userId: string | undefined): string | undefined {
  if (!userId) return undefined;
  if (userId.startsWith('{')) {
    try {
      const parsed = JSON.parse(userId) as { session_id?: unknown };
      if (typeof parsed.session_id === 'string' && parsed.session_id.length > 0) return parsed.session_id;
    } catch {
      // not JSON after all: fall through to the older shape
    }
  }
  return /_session_([A-Za-z0-9-]+)$/.exec(userId)?.[1];
}

function systemText(system: AnthropicRequest['system']): string {
  if (system === undefined) return '';
  if (typeof system === 'string') return system;
  return system.map((b) => b.text).join('\n\n');
}

function mapMessages(messages: AnthropicMessage[], names: ToolNames): ResponsesInputItem[] {
  const out: ResponsesInputItem[] = [];
  for (const message of messages) {
    if (message.role === 'assistant') out.push(...mapAssistant(blocksOf(message), names));
    else if (message.role === 'system') {
      const text = blocksOf(message).flatMap((b) => (b.type === 'text' ? [b.text] : [])).join('\n\n');
      if (text.length > 0) out.push({ type: 'message', role: 'developer', content: [{ type: 'input_text', text }] });
    } else out.push(...mapUser(blocksOf(message)));
  }
  return out;
}

function blocksOf(message: AnthropicMessage): AnthropicContentBlock[] {
  return typeof message.content === 'string' ? [{ type: 'text', text: message.content }] : message.content;
}

/** Tool results go first (they answer the calls just before); their images ride in the user message after them. */
function mapUser(blocks: AnthropicContentBlock[]): ResponsesInputItem[] {
  const outputs: ResponsesInputItem[] = [];
  const content: ResponsesInputContent[] = [];
  for (const block of blocks) {
    if (block.type === 'tool_result') {
      const { text, media } = splitToolResult(block, mediaContent);
      outputs.push({ type: 'function_call_output', call_id: shortenCallId(block.tool_use_id), output: text });
      content.push(...media);
    } else if (block.type === 'text') content.push({ type: 'input_text', text: block.text });
    else if (block.type === 'image') content.push(imageContent(block));
    else if (block.type === 'document') content.push(documentContent(block));
  }
  return content.length > 0 ? [...outputs, { type: 'message', role: 'user', content }] : outputs;
}

function mapAssistant(blocks: AnthropicContentBlock[], names: ToolNames): ResponsesInputItem[] {
  const out: ResponsesInputItem[] = [];
  let text = '';
  const flushText = () => {
    if (text.length > 0) out.push({ type: 'message', role: 'assistant', content: [{ type: 'output_text', text }] });
    text = '';
  };
  for (const block of blocks) {
    if (block.type === 'text') text += block.text;
    else if (block.type === 'thinking') {
      flushText();
      const item = reasoningItem(block.thinking, block.signature);
      if (item) out.push(item);
    } else if (block.type === 'tool_use') {
      flushText();
      out.push({ type: 'function_call', call_id: shortenCallId(block.id), name: names.upstream(block.name), arguments: JSON.stringify(block.input ?? {}) });
    }
  }
  flushText();
  return out;
}

/**
 * A thinking block goes back as the reasoning item it came from only when its signature is the
 * backend's own encrypted reasoning (a Fernet token, `gAAAA…`). Thinking signed by another vendor
 * (the user switched from Claude mid-conversation) cannot be decrypted there and would fail the
 * whole request, so it is dropped, as unsigned thinking is.
 */
function reasoningItem(thinking: string, signature: string | undefined): ResponsesInputItem | undefined {
  if (!signature || !signature.startsWith('gAAAA')) return undefined;
  return { type: 'reasoning', summary: thinking.length > 0 ? [{ type: 'summary_text', text: thinking }] : [], encrypted_content: signature };
}

function mediaContent(block: AnthropicImageBlock | AnthropicDocumentBlock): ResponsesInputContent {
  return block.type === 'image' ? imageContent(block) : documentContent(block);
}

function imageContent(block: AnthropicImageBlock): ResponsesInputContent {
  const url = block.source.type === 'base64' ? toDataUrl(block.source.media_type, block.source.data) : block.source.url;
  return { type: 'input_image', image_url: url, detail: 'auto' };
}

function documentContent(block: AnthropicDocumentBlock): ResponsesInputContent {
  const source = block.source;
  if (source.type === 'text') return { type: 'input_text', text: source.data };
  if (source.type === 'url') return { type: 'input_text', text: source.url };
  return { type: 'input_file', filename: block.title ?? 'document.pdf', file_data: toDataUrl(source.media_type, source.data) };
}

/** The names of the client's own tools (the ones a call can name), in order. */
export function clientToolNames(tools: AnthropicTool[]): string[] {
  return tools.filter(isClientTool).map((t) => t.name);
}

/** `tools` as the request mapper maps them: what the engine keeps per distinct tools bytes. */
export function anthropicToolsToResponses(tools: AnthropicTool[]): Array<ResponsesFunctionTool | ResponsesWebSearchTool> {
  return mapTools(tools, new ToolNames(clientToolNames(tools)));
}

function isClientTool(tool: AnthropicTool): boolean {
  return tool.type === undefined || tool.type === 'custom';
}

/** Client tools become functions; Claude's web search becomes the backend's own; other server tools have no equivalent. */
function mapTools(tools: AnthropicTool[], names: ToolNames): Array<ResponsesFunctionTool | ResponsesWebSearchTool> {
  const out: Array<ResponsesFunctionTool | ResponsesWebSearchTool> = [];
  for (const tool of tools) {
    if (isClientTool(tool)) {
      out.push({
        type: 'function',
        name: names.upstream(tool.name),
        ...(tool.description !== undefined ? { description: tool.description } : {}),
        parameters: tool.input_schema ?? { type: 'object', properties: {} },
        strict: false,
      });
    } else if (tool.type?.startsWith('web_search_') && !out.some((t) => t.type === 'web_search')) out.push({ type: 'web_search' });
  }
  return out;
}

function mapToolChoice(choice: AnthropicToolChoice | undefined, names: ToolNames): ResponsesToolChoice | undefined {
  switch (choice?.type) {
    case 'auto':
      return 'auto';
    case 'any':
      return 'required';
    case 'none':
      return 'none';
    case 'tool':
      return { type: 'function', name: names.upstream(choice.name) };
    default:
      return undefined;
  }
}
