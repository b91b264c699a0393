import { ResponsesCollector, responsesPair, type ResponsesFailure } from '../../translate/index.js';
import { SseEventReader } from '../../translate/sse-events.js';
import { responsesEvent } from '../../translate/anthropic-responses/sse.js';
import type { PlanInput, TrafficPlan } from './plan.js';

/**
 * A request for a Responses upstream (the ChatGPT backend of codex accounts): translated by the
 * registry's pair for the client's format. The backend always streams; a client that asked for a
 * whole answer gets the stream gathered (`decodeWhole`). The prompt cache key (the Claude Code
 * session) also goes out as the `session_id` header, as the Codex CLI sends it.
 */
export function responsesPlan(input: PlanInput, stream: boolean): TrafficPlan {
  const pair = responsesPair(input.client);
  const options = { model: input.clientModel, upstreamModel: input.upstreamModel };
  const plan = pair.request(input.request.parsed(), options);
  let translator: ReturnType<typeof pair.stream> | undefined;
  return {
    upstreamPath: '/responses',
    body: Buffer.from(JSON.stringify(plan.body)),
    stream,
    sessionKey: plan.body.prompt_cache_key,
    createStream: () => (translator = pair.stream(plan, options)),
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
      return { answer: pair.response(result.response, plan, options), usage: result.response.usage };
    },
  };
}

export type WholeAnswer = { answer: unknown; usage: unknown } | { failure: ResponsesFailure };
