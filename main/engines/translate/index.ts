/**
 * The Anthropic Messages ⇄ OpenAI Chat Completions translator, shared by the proxy engine and the
 * bridge daemon. Everything here is pure (no I/O, no clock unless a default needs "now"):
 *
 * - request mappers: `anthropicRequestToOpenAI`, `openAIRequestToAnthropic`
 * - response mappers: `openAIResponseToAnthropic`, `anthropicResponseToOpenAI`
 * - error mappers: `toAnthropicError` / `toOpenAIError` (any upstream error text → the client's
 *   format), `anthropicError` / `openAIError` (build one from status + message)
 * - streaming, object level: `OpenAIToAnthropicStream`, `AnthropicToOpenAIStream` (per-stream state;
 *   push parsed upstream events, get client events back; `end()` and `fail()` close the stream)
 * - streaming, text level: `createOpenAIToAnthropicSse`, `createAnthropicToOpenAISse` (raw upstream
 *   SSE text in, client SSE text out; parsing by eventsource-parser)
 * - helpers: `stripUnsignedThinking` (before sending to an Anthropic upstream),
 *   `estimateInputTokens` (count_tokens estimate)
 *
 * Coverage and known gaps are listed in docs/proxy-engine.md.
 */
export type * from './anthropic-types.js';
export type * from './openai-types.js';

export { anthropicRequestToOpenAI, anthropicToolsToOpenAI, reasoningEffortFor, type AnthropicToOpenAIRequestOptions } from './request-anthropic-to-openai.js';
export { openAIRequestToAnthropic, thinkingFor, type OpenAIToAnthropicRequestOptions } from './request-openai-to-anthropic.js';
export { openAIResponseToAnthropic, type OpenAIToAnthropicResponseOptions } from './response-openai-to-anthropic.js';
export { anthropicResponseToOpenAI, type AnthropicToOpenAIResponseOptions } from './response-anthropic-to-openai.js';
export {
  anthropicError,
  anthropicErrorToOpenAI,
  anthropicErrorType,
  openAIError,
  openAIErrorToAnthropic,
  openAIErrorTypeAndCode,
  parseErrorBody,
  statusForAnthropicErrorType,
  toAnthropicError,
  toOpenAIError,
  type ParsedError,
} from './errors.js';
export { OpenAIToAnthropicStream, type OpenAIToAnthropicStreamOptions } from './stream-openai-to-anthropic.js';
export { AnthropicToOpenAIStream, type AnthropicToOpenAIStreamOptions, type OpenAIStreamFrame } from './stream-anthropic-to-openai.js';
export { createAnthropicToOpenAISse, createOpenAIToAnthropicSse, encodeAnthropicEvent, encodeOpenAIFrame, SSE_HEADERS, type SseTranslator } from './sse.js';
export { anthropicStopReason, openAIFinishReason } from './reasons.js';
export { anthropicUsageFromOpenAI, openAIUsageFromAnthropic } from './usage.js';
export { stripUnsignedThinking } from './sanitize.js';
export { estimateInputTokens } from './count-tokens.js';

// Responses upstreams (the ChatGPT backend behind codex accounts): Anthropic ⇄ Responses, and Chat
// Completions ⇄ Responses through the Anthropic pivot, chosen by client format in the registry.
export type * from './anthropic-responses/responses-types.js';
export { anthropicRequestToResponses, anthropicToolsToResponses, claudeCodeSession, clientToolNames, type ResponsesRequestPlan } from './anthropic-responses/request.js';
export { responsesToAnthropic } from './anthropic-responses/response.js';
export { ResponsesToAnthropicStream } from './anthropic-responses/stream.js';
export { ResponsesCollector } from './anthropic-responses/collect.js';
export { responsesFailure, type ResponsesFailure } from './anthropic-responses/failure.js';
export { createResponsesToAnthropicSse, responsesEvent, type ResponsesSseTranslator } from './anthropic-responses/sse.js';
export { ToolNames } from './anthropic-responses/tool-names.js';
export { createResponsesToOpenAISse, openAIRequestToResponses, responsesToOpenAI, ResponsesToOpenAIStream } from './openai-responses/index.js';
export { responsesPair, type ClientFormat, type UpstreamFormat, type ResponsesPair, type PairOptions } from './registry.js';
