import type { AnthropicRequest } from './anthropic-types.js';
import { anthropicRequestToResponses, type ResponsesRequestPlan } from './anthropic-responses/request.js';
import { responsesToAnthropic } from './anthropic-responses/response.js';
import type { ResponsesResponse } from './anthropic-responses/responses-types.js';
import { createResponsesToAnthropicSse, type ResponsesSseTranslator } from './anthropic-responses/sse.js';
import type { ToolNames } from './anthropic-responses/tool-names.js';
import type { OpenAIRequest } from './openai-types.js';
import { createResponsesToOpenAISse, openAIRequestToResponses, responsesToOpenAI } from './openai-responses/index.js';

/** What a client speaks (the route it called) and what an upstream speaks. */
export type ClientFormat = 'anthropic' | 'openai';
export type UpstreamFormat = 'anthropic' | 'openai' | 'responses';

export interface PairOptions {
  /** The model name the client asked for, echoed back in answers. */
  model?: string;
  /** The upstream's model id, after alias resolution. */
  upstreamModel?: string;
  /** Anthropic clients: the body's tools mapped already (see AnthropicToResponsesOptions). */
  mappedTools?: { tools: unknown[]; clientToolNames: string[] };
}

/**
 * One translator pair for a (client, upstream) format: the request mapper, the whole-answer mapper
 * and a stream translator, sharing per-request state (the tool-name map) through the plan.
 */
export interface ResponsesPair {
  request(body: Record<string, unknown>, options: PairOptions): ResponsesRequestPlan;
  response(answer: ResponsesResponse, plan: ResponsesRequestPlan, options: PairOptions): unknown;
  stream(plan: ResponsesRequestPlan, options: PairOptions): ResponsesSseTranslator;
}

/**
 * Pairs for upstreams that speak the Responses API (the codex executor). The Anthropic ⇄ Chat
 * Completions pairs predate this registry and keep their fast paths in the engine's traffic code;
 * executors added later (Gemini, Kiro) register theirs here, keyed the same way.
 */
const responsesPairs: Record<ClientFormat, ResponsesPair> = {
  anthropic: {
    request: (body, o) => anthropicRequestToResponses(body as unknown as AnthropicRequest, { model: o.upstreamModel, ...(o.mappedTools ? { mappedTools: o.mappedTools } : {}) }),
    response: (answer, plan, o) => responsesToAnthropic(answer, { model: o.model, toolNames: plan.toolNames }),
    stream: (plan, o) => createResponsesToAnthropicSse({ model: o.model, toolNames: plan.toolNames }),
  },
  openai: {
    request: (body, o) => openAIRequestToResponses(body as unknown as OpenAIRequest, { model: o.upstreamModel }),
    response: (answer, plan, o) => responsesToOpenAI(answer, { model: o.model, toolNames: plan.toolNames }),
    stream: (plan, o) => createResponsesToOpenAISse({ model: o.model, toolNames: plan.toolNames, includeUsage: true }),
  },
};

export function responsesPair(client: ClientFormat): ResponsesPair {
  return responsesPairs[client];
}

export type { ToolNames };
