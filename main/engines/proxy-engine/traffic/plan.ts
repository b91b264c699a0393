import {
  anthropicRequestToOpenAI,
  anthropicResponseToOpenAI,
  anthropicToolsToOpenAI,
  createAnthropicToOpenAISse,
  createOpenAIToAnthropicSse,
  openAIRequestToAnthropic,
  openAIResponseToAnthropic,
  stripUnsignedThinking,
  type AnthropicRequest,
  type AnthropicResponse,
  type AnthropicTool,
  type OpenAIRequest,
  type OpenAIResponse,
  type OpenAITool,
  type SseTranslator,
} from '../../translate/index.js';
import type { ClientFormat } from '../client-errors.js';
import type { RoutedUpstream } from '../providers/account-upstream.js';
import type { ClientBody, ToolsMapping } from './client-body.js';
import { ToolsMemo } from './tools-memo.js';
import { responsesPlan, type WholeAnswer } from './plan-responses.js';
import type { ResponsesFailure } from '../../translate/index.js';

/**
 * How one client request travels to one upstream format and back: the upstream path and body,
 * and the response mappers. Same format on both sides = passthrough: bytes go out untouched
 * unless the model was re-aliased or foreign thinking blocks must go.
 */
export interface TrafficPlan {
  upstreamPath: string;
  body: Buffer;
  stream: boolean;
  /** Non-streaming success body → client body; undefined = pass the bytes through. */
  mapResponse?: (upstreamJson: unknown) => unknown;
  /** Streaming translator; undefined = pass the bytes through. */
  createStream?: () => SseTranslator;
  /** An upstream that always streams: its whole body → the client's answer, or why there is none. */
  decodeWhole?: (body: Buffer) => WholeAnswer;
  /** After a relayed stream: the failure it ended in, when the translator saw one. */
  streamFailure?: () => ResponsesFailure | undefined;
  /** The conversation's cache key, for executors that send it as a header. */
  sessionKey?: string;
}

export interface PlanInput {
  client: ClientFormat;
  endpoint: 'messages' | 'count_tokens' | 'chat';
  request: ClientBody;
  /** The model the client asked for, and the id the upstream knows it by. */
  clientModel: string;
  upstreamModel: string;
}

export function planFor(upstream: RoutedUpstream, input: PlanInput): TrafficPlan {
  const { request } = input;
  const stream = request.facts.stream && input.endpoint !== 'count_tokens';
  if (upstream.format === 'responses') return responsesPlan(input, stream);
  const sameModel = input.clientModel === input.upstreamModel;
  if (upstream.format === 'anthropic') {
    const path = input.endpoint === 'count_tokens' ? '/v1/messages/count_tokens' : '/v1/messages';
    if (input.client === 'anthropic') {
      // No alias, and no unsigned thinking block (only the blocks are parsed to tell): the client's
      // bytes go out untouched.
      if (sameModel && request.thinkingSigned()) return { upstreamPath: path, body: request.raw, stream };
      if (sameModel) {
        const req = request.parsed() as unknown as AnthropicRequest;
        if (stripUnsignedThinking(req) === req) return { upstreamPath: path, body: request.raw, stream };
      }
      const body = request.encode((b) => ({ ...stripUnsignedThinking(b as unknown as AnthropicRequest), model: input.upstreamModel }));
      return { upstreamPath: path, body, stream };
    }
    // Parsed whole: tool call arguments are JSON text the translator parses (no markers there).
    const body = request.parsed();
    const req = openAIRequestToAnthropic(body as unknown as OpenAIRequest, { model: input.upstreamModel });
    const includeUsage = (body as OpenAIRequest).stream_options?.include_usage === true;
    return {
      upstreamPath: path,
      body: json(req),
      stream,
      mapResponse: (res) => anthropicResponseToOpenAI(res as AnthropicResponse, { model: input.clientModel }),
      createStream: () => createAnthropicToOpenAISse({ model: input.clientModel, includeUsage }),
    };
  }
  if (input.client === 'openai') {
    return { upstreamPath: '/chat/completions', body: sameModel ? request.raw : request.encode((b) => ({ ...b, model: input.upstreamModel })), stream };
  }
  return {
    upstreamPath: '/chat/completions',
    body: request.encode((b, tools) => anthropicRequestToOpenAI(b as unknown as AnthropicRequest, { model: input.upstreamModel, mappedTools: tools as OpenAITool[] | undefined }), anthropicTools),
    stream,
    mapResponse: (res) => openAIResponseToAnthropic(res as OpenAIResponse, { model: input.clientModel }),
    createStream: () => createOpenAIToAnthropicSse({ model: input.clientModel }),
  };
}

/** Claude Code's tool definitions, mapped once per distinct set (see ToolsMemo). */
const anthropicTools: ToolsMapping = { memo: new ToolsMemo(), map: (tools) => anthropicToolsToOpenAI(tools as AnthropicTool[]) };

function json(value: unknown): Buffer {
  return Buffer.from(JSON.stringify(value));
}
