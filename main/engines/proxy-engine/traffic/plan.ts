import {
  anthropicRequestToOpenAI,
  anthropicResponseToOpenAI,
  createAnthropicToOpenAISse,
  createOpenAIToAnthropicSse,
  openAIRequestToAnthropic,
  openAIResponseToAnthropic,
  stripUnsignedThinking,
  type AnthropicRequest,
  type AnthropicResponse,
  type OpenAIRequest,
  type OpenAIResponse,
  type SseTranslator,
} from '../../translate/index.js';
import type { ClientFormat } from '../client-errors.js';
import type { Upstream } from '../config.js';

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
}

export interface PlanInput {
  client: ClientFormat;
  endpoint: 'messages' | 'count_tokens' | 'chat';
  body: Record<string, unknown>;
  raw: Buffer;
  /** The model the client asked for, and the id the upstream knows it by. */
  clientModel: string;
  upstreamModel: string;
}

export function planFor(upstream: Upstream, input: PlanInput): TrafficPlan {
  const stream = input.body.stream === true && input.endpoint !== 'count_tokens';
  if (upstream.format === 'anthropic') {
    const path = input.endpoint === 'count_tokens' ? '/v1/messages/count_tokens' : '/v1/messages';
    if (input.client === 'anthropic') {
      const req = input.body as unknown as AnthropicRequest;
      const cleaned = stripUnsignedThinking(req);
      const same = cleaned === req && input.clientModel === input.upstreamModel;
      return { upstreamPath: path, body: same ? input.raw : json({ ...cleaned, model: input.upstreamModel }), stream };
    }
    const req = openAIRequestToAnthropic(input.body as unknown as OpenAIRequest, { model: input.upstreamModel });
    const includeUsage = (input.body as OpenAIRequest).stream_options?.include_usage === true;
    return {
      upstreamPath: path,
      body: json(req),
      stream,
      mapResponse: (res) => anthropicResponseToOpenAI(res as AnthropicResponse, { model: input.clientModel }),
      createStream: () => createAnthropicToOpenAISse({ model: input.clientModel, includeUsage }),
    };
  }
  if (input.client === 'openai') {
    const same = input.clientModel === input.upstreamModel;
    return { upstreamPath: '/chat/completions', body: same ? input.raw : json({ ...input.body, model: input.upstreamModel }), stream };
  }
  const req = anthropicRequestToOpenAI(input.body as unknown as AnthropicRequest, { model: input.upstreamModel });
  return {
    upstreamPath: '/chat/completions',
    body: json(req),
    stream,
    mapResponse: (res) => openAIResponseToAnthropic(res as OpenAIResponse, { model: input.clientModel }),
    createStream: () => createOpenAIToAnthropicSse({ model: input.clientModel }),
  };
}

function json(value: unknown): Buffer {
  return Buffer.from(JSON.stringify(value));
}
