/**
 * OpenAI Chat Completions clients on a Responses upstream (the codex backend). The pair goes through
 * the Anthropic mappers as its pivot: Chat → Anthropic → Responses on the way up, Responses →
 * Anthropic → Chat on the way down. Both halves are the tested pairs, so tool calls, reasoning,
 * images, usage and stop reasons mean the same thing on every path, and nothing is mapped twice by
 * hand. The cost is one extra object walk per request, small beside the upstream's own time.
 */
import type { AnthropicStreamEvent } from '../anthropic-types.js';
import type { OpenAIRequest, OpenAIResponse } from '../openai-types.js';
import { openAIRequestToAnthropic } from '../request-openai-to-anthropic.js';
import { anthropicResponseToOpenAI } from '../response-anthropic-to-openai.js';
import { encodeOpenAIFrame } from '../sse.js';
import { AnthropicToOpenAIStream, type AnthropicToOpenAIStreamOptions, type OpenAIStreamFrame } from '../stream-anthropic-to-openai.js';
import { anthropicRequestToResponses, type ResponsesRequestPlan } from '../anthropic-responses/request.js';
import { responsesToAnthropic } from '../anthropic-responses/response.js';
import type { ResponsesResponse, ResponsesStreamEvent } from '../anthropic-responses/responses-types.js';
import { responsesSse, type ResponsesSseTranslator } from '../anthropic-responses/sse.js';
import { ResponsesToAnthropicStream } from '../anthropic-responses/stream.js';
import type { ToolNames } from '../anthropic-responses/tool-names.js';
import type { ResponsesFailure } from '../anthropic-responses/failure.js';

/**
 * The client's own reasoning effort is sent as it is: through the pivot it would become a thinking
 * budget capped by max_tokens and come back lower.
 */
export function openAIRequestToResponses(req: OpenAIRequest, options: { model?: string; promptCacheKey?: string } = {}): ResponsesRequestPlan {
  const plan = anthropicRequestToResponses(openAIRequestToAnthropic(req, { model: options.model }), options);
  const effort = req.reasoning_effort;
  if (effort === 'none') delete plan.body.reasoning;
  else if (effort) plan.body.reasoning = { effort, summary: 'auto' };
  return plan;
}

export function responsesToOpenAI(response: ResponsesResponse, options: { model?: string; created?: number; toolNames?: ToolNames } = {}): OpenAIResponse {
  return anthropicResponseToOpenAI(responsesToAnthropic(response, options), options);
}

/** Responses events → chat.completion.chunk frames, through the Anthropic event sequence. */
export class ResponsesToOpenAIStream {
  private readonly toAnthropic: ResponsesToAnthropicStream;
  private readonly toOpenAI: AnthropicToOpenAIStream;

  constructor(options: AnthropicToOpenAIStreamOptions & { toolNames?: ToolNames } = {}) {
    this.toAnthropic = new ResponsesToAnthropicStream(options);
    this.toOpenAI = new AnthropicToOpenAIStream(options);
  }

  get done(): boolean {
    return this.toAnthropic.done;
  }

  get failure(): ResponsesFailure | undefined {
    return this.toAnthropic.failure;
  }

  push(event: ResponsesStreamEvent): OpenAIStreamFrame[] {
    return this.relay(this.toAnthropic.push(event));
  }

  end(): OpenAIStreamFrame[] {
    return this.relay(this.toAnthropic.end());
  }

  fail(status: number, message: string): OpenAIStreamFrame[] {
    return this.relay(this.toAnthropic.fail(status, message));
  }

  private relay(events: AnthropicStreamEvent[]): OpenAIStreamFrame[] {
    return events.flatMap((e) => this.toOpenAI.push(e));
  }
}

export function createResponsesToOpenAISse(options: AnthropicToOpenAIStreamOptions & { toolNames?: ToolNames } = {}): ResponsesSseTranslator {
  return responsesSse(new ResponsesToOpenAIStream(options), encodeOpenAIFrame);
}
