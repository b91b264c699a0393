import type { AnthropicStreamEvent } from '../anthropic-types.js';
import { BufferedTranslator, encodeAnthropicEvent, parseJson, type ClosingStream, type SseTranslator } from '../sse.js';
import type { SseEvent } from '../sse-events.js';
import type { ResponsesFailure } from './failure.js';
import type { ResponsesStreamEvent } from './responses-types.js';
import { ResponsesToAnthropicStream, type ResponsesToAnthropicStreamOptions } from './stream.js';

/** A Responses stream translator that also tells whether the stream ended in a failure (for the request log and cooldowns). */
export interface ResponsesSseTranslator extends SseTranslator {
  readonly failure: ResponsesFailure | undefined;
}

/** Upstream speaks Responses SSE (named events, `type` in the data); the client expects Anthropic events. */
export function createResponsesToAnthropicSse(options: ResponsesToAnthropicStreamOptions = {}): ResponsesSseTranslator {
  return responsesSse(new ResponsesToAnthropicStream(options), encodeAnthropicEvent);
}

type FailingStream<F> = ClosingStream<F> & { push(event: ResponsesStreamEvent): F[]; readonly done: boolean; readonly failure: ResponsesFailure | undefined };

/** Any stream of client frames fed by Responses events: the SSE reading is the same for every client format. */
export function responsesSse<F>(stream: FailingStream<F>, encode: (frame: F) => string): ResponsesSseTranslator {
  return new ResponsesTranslator(stream, encode);
}

class ResponsesTranslator<F> extends BufferedTranslator<F> implements ResponsesSseTranslator {
  constructor(
    private readonly source: FailingStream<F>,
    encode: (frame: F) => string,
  ) {
    super(source, encode, (message: SseEvent, emit, close) => {
      const event = responsesEvent(message);
      if (!event) return;
      emit(source.push(event));
      if (source.done) close();
    });
  }

  get failure(): ResponsesFailure | undefined {
    return this.source.failure;
  }
}

/** The event's `type` wins; the `event:` line names it when the data lacks one. */
export function responsesEvent(message: SseEvent): ResponsesStreamEvent | undefined {
  const parsed = parseJson(message.data);
  if (!parsed) return undefined; // keep-alives and broken lines do not end the stream
  const type = typeof parsed.type === 'string' ? parsed.type : message.event;
  return type ? { ...parsed, type } : undefined;
}

export type { AnthropicStreamEvent };
