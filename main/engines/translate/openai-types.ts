/**
 * The parts of the OpenAI Chat Completions wire format the translator reads and writes, including
 * the widely used `reasoning_content` extension (DeepSeek, vLLM, many OpenAI-compatible servers).
 */

export type OpenAIContentPart =
  | { type: 'text'; text: string }
  | { type: 'image_url'; image_url: { url: string; detail?: 'auto' | 'low' | 'high' } }
  | { type: 'file'; file: { filename?: string; file_data?: string; file_id?: string } }
  | { type: 'input_audio'; input_audio: { data: string; format: string } }
  | { type: 'refusal'; refusal: string };

export interface OpenAIToolCall {
  id: string;
  type: 'function';
  function: { name: string; arguments: string };
}

export interface OpenAISystemMessage {
  role: 'system' | 'developer';
  content: string | OpenAIContentPart[];
  name?: string;
}

export interface OpenAIUserMessage {
  role: 'user';
  content: string | OpenAIContentPart[];
  name?: string;
}

export interface OpenAIAssistantMessage {
  role: 'assistant';
  content?: string | OpenAIContentPart[] | null;
  reasoning_content?: string | null;
  tool_calls?: OpenAIToolCall[];
  function_call?: { name: string; arguments: string } | null;
  refusal?: string | null;
  name?: string;
}

export interface OpenAIToolMessage {
  role: 'tool';
  tool_call_id: string;
  content: string | OpenAIContentPart[];
}

export interface OpenAIFunctionMessage {
  role: 'function';
  name: string;
  content: string | null;
}

export type OpenAIMessage =
  | OpenAISystemMessage
  | OpenAIUserMessage
  | OpenAIAssistantMessage
  | OpenAIToolMessage
  | OpenAIFunctionMessage;

export interface OpenAITool {
  type: 'function';
  function: { name: string; description?: string; parameters?: Record<string, unknown>; strict?: boolean };
}

export type OpenAIToolChoice =
  | 'none'
  | 'auto'
  | 'required'
  | { type: 'function'; function: { name: string } };

export type OpenAIReasoningEffort = 'none' | 'minimal' | 'low' | 'medium' | 'high' | 'xhigh';

export interface OpenAIRequest {
  model: string;
  messages: OpenAIMessage[];
  max_tokens?: number | null;
  max_completion_tokens?: number | null;
  stop?: string | string[] | null;
  stream?: boolean | null;
  stream_options?: { include_usage?: boolean } | null;
  temperature?: number | null;
  top_p?: number | null;
  tools?: OpenAITool[];
  tool_choice?: OpenAIToolChoice;
  parallel_tool_calls?: boolean;
  reasoning_effort?: OpenAIReasoningEffort | null;
  user?: string;
  functions?: Array<{ name: string; description?: string; parameters?: Record<string, unknown> }>;
  function_call?: 'none' | 'auto' | { name: string };
  [extra: string]: unknown;
}

export type OpenAIFinishReason = 'stop' | 'length' | 'tool_calls' | 'content_filter' | 'function_call';

export interface OpenAIUsage {
  prompt_tokens: number;
  completion_tokens: number;
  total_tokens: number;
  prompt_tokens_details?: { cached_tokens?: number; [k: string]: unknown } | null;
  completion_tokens_details?: { reasoning_tokens?: number; [k: string]: unknown } | null;
  /** DeepSeek reports cache hits here instead of prompt_tokens_details. */
  prompt_cache_hit_tokens?: number;
  [extra: string]: unknown;
}

export interface OpenAIResponseMessage {
  role: 'assistant';
  content: string | null;
  reasoning_content?: string | null;
  /** OpenRouter and some vLLM builds name the reasoning text `reasoning`. */
  reasoning?: string | null;
  tool_calls?: OpenAIToolCall[];
  function_call?: { name: string; arguments: string } | null;
  refusal?: string | null;
}

export interface OpenAIResponse {
  id: string;
  object: 'chat.completion';
  created: number;
  model: string;
  choices: Array<{
    index: number;
    message: OpenAIResponseMessage;
    finish_reason: OpenAIFinishReason | null;
    logprobs?: unknown;
  }>;
  usage?: OpenAIUsage;
  system_fingerprint?: string | null;
}

export interface OpenAIToolCallDelta {
  index: number;
  id?: string;
  type?: 'function';
  function?: { name?: string; arguments?: string };
}

export interface OpenAIChunkDelta {
  role?: 'assistant';
  content?: string | null;
  reasoning_content?: string | null;
  reasoning?: string | null;
  tool_calls?: OpenAIToolCallDelta[];
  refusal?: string | null;
}

export interface OpenAIChunk {
  id: string;
  object: 'chat.completion.chunk';
  created: number;
  model: string;
  choices: Array<{ index: number; delta: OpenAIChunkDelta; finish_reason: OpenAIFinishReason | null; logprobs?: unknown }>;
  usage?: OpenAIUsage | null;
}

export interface OpenAIErrorBody {
  error: { message: string; type: string; param?: string | null; code: string | null };
}
