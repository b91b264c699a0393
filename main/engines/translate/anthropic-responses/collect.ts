import { responsesFailure, type ResponsesFailure } from './failure.js';
import type { ResponsesOutputItem, ResponsesResponse, ResponsesStreamEvent } from './responses-types.js';

/**
 * The backend always streams; a client that asked for one whole answer gets the stream gathered
 * here. The finished items are taken from `response.output_item.done` events, because the final
 * `response.completed` of an unstored response may list no output.
 */
export class ResponsesCollector {
  private readonly items: ResponsesOutputItem[] = [];
  private result: { response: ResponsesResponse } | { failure: ResponsesFailure } | undefined;

  push(event: ResponsesStreamEvent): void {
    if (this.result) return;
    if (event.type === 'response.output_item.done' && isObject(event.item)) this.items.push(event.item as ResponsesOutputItem);
    else if (event.type === 'response.completed' || event.type === 'response.incomplete') {
      const response = (isObject(event.response) ? event.response : {}) as ResponsesResponse;
      const output = Array.isArray(response.output) && response.output.length > 0 ? response.output : this.items;
      this.result = { response: { ...response, output } };
    } else if (event.type === 'response.failed' || event.type === 'error') this.result = { failure: responsesFailure(event) };
  }

  /** The whole answer, or why there is none (a stream that ended before completing is a failure too). */
  finish(): { response: ResponsesResponse } | { failure: ResponsesFailure } {
    return this.result ?? { failure: { status: 502, message: 'The ChatGPT backend closed the stream before the response completed' } };
  }
}

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}
