import { ResponsesCollector, responsesPair, type PairOptions, type ResponsesFailure } from '../../translate/index.js';
import { SseEventReader } from '../../translate/sse-events.js';
import { responsesEvent } from '../../translate/anthropic-responses/sse.js';
import type { ResponsesRequestPlan } from '../../translate/anthropic-responses/request.js';
import type { PlanInput, TrafficPlan } from './plan.js';
import { skeletonReadable } from './responses-skeleton.js';
import { ResponsesTools } from './responses-tools.js';

/**
 * A request for a Responses upstream (the ChatGPT backend of codex accounts): translated by the
 * registry's pair for the client's format. The backend always streams; a client that asked for a
 * whole answer gets the stream gathered (`decodeWhole`). The prompt cache key (the Claude Code
 * session) also goes out as the `session_id` header, as the Codex CLI sends it.
 */
/** Per engine process, as the OpenAI path's memo is. */
const responsesTools = new ResponsesTools();

export function responsesPlan(input: PlanInput, stream: boolean, tools: ResponsesTools = responsesTools): TrafficPlan {
  const pair = responsesPair(input.client);
  const options = { model: input.clientModel, upstreamModel: input.upstreamModel };
  let plan: ResponsesRequestPlan | undefined;
  const build = (body: Record<string, unknown>, mappedTools?: PairOptions['mappedTools']) => (plan = pair.request(body, mappedTools ? { ...options, mappedTools } : options)).body;
  // Anthropic clients: the mapper works on the body's skeleton and the long strings (tool results,
  // file contents, the system prompt) are spliced back as the client sent them, and the tools are
  // mapped once per distinct tools bytes, as on the OpenAI path, so a long conversation is not
  // parsed and written again whole. OpenAI clients pivot through Anthropic, which parses
  // tool-call arguments: they take the parsed body.
  const { request } = input;
  const body =
    input.client === 'anthropic'
      ? request.encode((skeleton, mapped) => {
          if (!skeletonReadable(skeleton)) throw new Error('the skeleton hides a string the mapper reads');
          if (!mapped) return build(skeleton);
          const clientToolNames = tools.clientNames(request);
          if (!clientToolNames) throw new Error('the tool names cannot be read');
          return build(skeleton, { tools: mapped, clientToolNames });
        }, tools.mapping)
      : Buffer.from(JSON.stringify(build(request.parsed())));
  // The last build is the one whose JSON went out (encode falls back to the parsed body).
  const done: ResponsesRequestPlan | undefined = plan;
  if (!done) throw new Error('the request was not translated');
  let translator: ReturnType<typeof pair.stream> | undefined;
  return {
    upstreamPath: '/responses',
    body,
    stream,
    sessionKey: done.body.prompt_cache_key,
    createStream: () => (translator = pair.stream(done, options)),
    streamFailure: () => translator?.failure,
    decodeWhole: (body) => {
      const collector = new ResponsesCollector();
      const reader = new SseEventReader((message) => {
        const event = responsesEvent(message);
        if (event) collector.push(event);
      });
      reader.feed(body.toString('utf8'));
      reader.feed('\n\n');
      const result = collector.finish();
      if ('failure' in result) return result;
      return { answer: pair.response(result.response, done, options), usage: result.response.usage };
    },
  };
}

export type WholeAnswer = { answer: unknown; usage: unknown } | { failure: ResponsesFailure };
