import type { AnthropicStreamEvent } from '../anthropic-types.js';
import { BufferedTranslator, encodeAnthropicEvent, parseJson, type ClosingStream, type SseTranslator } from '../sse.js';
import type { SseEvent } from '../sse-events.js';
import type { ResponsesStreamEvent } from './responses-types.js';
import { ResponsesToAnthropicStream, type ResponsesToAnthropicStreamOptions } from './stream.js';

/** Upstream speaks Responses SSE (named events, `type` in the data); the client expects Anthropic events. */
export function createResponsesToAnthropicSse(options: ResponsesToAnthropicStreamOptions = {}): SseTranslator {
  return responsesSse(new ResponsesToAnthropicStream(options), encodeAnthropicEvent);
}

/** Any stream of client frames fed by Responses events: the SSE reading is the same for every client format. */
export function responsesSse<F>(stream: ClosingStream<F> & { push(event: ResponsesStreamEvent): F[]; readonly done: boolean }, encode: (frame: F) => string): SseTranslator {
  return new BufferedTranslator<F>(stream, encode, (message: SseEvent, emit, close) => {
    const event = responsesEvent(message);
    if (!event) return;
    emit(stream.push(event));
    if (stream.done) close();
  });
}

/** The event's `type` wins; the `event:` line names it when the data lacks one. */
export function responsesEvent(message: SseEvent): ResponsesStreamEvent | undefined {
  const parsed = parseJson(message.data);
  if (!parsed) return undefined; // keep-alives and broken lines do not end the stream
  const type = typeof parsed.type === 'string' ? parsed.type : message.event;
  return type ? { ...parsed, type } : undefined;
}

export type { AnthropicStreamEvent };
