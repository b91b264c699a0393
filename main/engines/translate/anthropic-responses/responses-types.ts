import type { OpenAIReasoningEffort } from '../openai-types.js';

/**
 * The parts of OpenAI's Responses API wire format that the ChatGPT (codex) backend speaks and the
 * translator reads and writes. Hand-written and open, like the Anthropic and Chat Completions types.
 */

export type ResponsesInputContent =
  | { type: 'input_text'; text: string }
  | { type: 'output_text'; text: string }
  | { type: 'input_image'; image_url: string; detail?: 'auto' | 'low' | 'high' }
  | { type: 'input_file'; filename?: string; file_data: string };

export interface ResponsesMessageItem {
  type: 'message';
  role: 'user' | 'assistant' | 'developer' | 'system';
  content: ResponsesInputContent[];
  id?: string;
  status?: string;
}

export interface ResponsesFunctionCallItem {
  type: 'function_call';
  call_id: string;
  name: string;
  arguments: string;
  id?: string;
  status?: string;
}

export interface ResponsesFunctionCallOutputItem {
  type: 'function_call_output';
  call_id: string;
  output: string;
}

export interface ResponsesReasoningItem {
  type: 'reasoning';
  id?: string;
  summary: Array<{ type: 'summary_text'; text: string }>;
  encrypted_content?: string | null;
}

export type ResponsesInputItem = ResponsesMessageItem | ResponsesFunctionCallItem | ResponsesFunctionCallOutputItem | ResponsesReasoningItem;

export interface ResponsesFunctionTool {
  type: 'function';
  name: string;
  description?: string;
  parameters: Record<string, unknown>;
  strict: boolean;
}

export interface ResponsesWebSearchTool {
  type: 'web_search';
}

export type ResponsesToolChoice = 'auto' | 'none' | 'required' | { type: 'function'; name: string };

/** The Chat Completions efforts: the backend takes the same words. */
export type ResponsesReasoningEffort = OpenAIReasoningEffort;

export interface ResponsesRequest {
  model: string;
  instructions: string;
  input: ResponsesInputItem[];
  tools?: Array<ResponsesFunctionTool | ResponsesWebSearchTool>;
  tool_choice?: ResponsesToolChoice;
  parallel_tool_calls?: boolean;
  reasoning?: { effort?: ResponsesReasoningEffort; summary?: 'auto' | 'concise' | 'detailed' };
  store: false;
  stream: true;
  include: string[];
  prompt_cache_key?: string;
  [extra: string]: unknown;
}

/** Output content of a finished message item. */
export type ResponsesOutputContent = { type: 'output_text'; text: string } | { type: 'refusal'; refusal: string };

export type ResponsesOutputItem =
  | { type: 'message'; id?: string; role: 'assistant'; content: ResponsesOutputContent[]; status?: string }
  | ResponsesFunctionCallItem
  | ResponsesReasoningItem
  | { type: string; id?: string; [extra: string]: unknown };

export interface ResponsesUsage {
  input_tokens?: number;
  input_tokens_details?: { cached_tokens?: number } | null;
  output_tokens?: number;
  output_tokens_details?: { reasoning_tokens?: number } | null;
  total_tokens?: number;
}

export interface ResponsesResponse {
  id?: string;
  object?: 'response';
  model?: string;
  status?: 'completed' | 'incomplete' | 'failed' | 'in_progress' | string;
  output?: ResponsesOutputItem[];
  usage?: ResponsesUsage | null;
  incomplete_details?: { reason?: string } | null;
  error?: { code?: string; message?: string; type?: string } | null;
  [extra: string]: unknown;
}

/** One parsed event of a Responses stream: its `type` is the event name. */
export interface ResponsesStreamEvent {
  type: string;
  [field: string]: unknown;
}
