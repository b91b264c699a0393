import { createParser, type EventSourceParser } from 'eventsource-parser';

/** One server-sent event as the translators read it. */
export interface SseEvent {
  /** The `event:` field, when the event has one. */
  event?: string;
  data: string;
}

const DATA = 'data: ';
const EVENT = 'event: ';

/**
 * Cuts decoded SSE text into events. Both upstream formats frame every event the same plain way —
 * `data: ...` (OpenAI) or `event: ...` then `data: ...` (Anthropic), `\n` line ends, a blank line
 * after each — and those are cut out here with a few index searches per event (issue 19 point 6:
 * the general parser's line handling was a seventh of translating a stream). Any other event (a
 * comment, an `id:` or `retry:` field, data on several lines, no space after the colon) goes to
 * eventsource-parser, which implements the whole specification, as a complete block. A carriage
 * return or a byte-order mark changes how lines end, so from then on the whole stream goes there.
 */
export class SseEventReader {
  private tail = '';
  private general: EventSourceParser | undefined;
  /** Set once the stream needs the general parser for everything (CR line ends, a BOM). */
  private generalOnly = false;
  private started = false;

  constructor(private readonly onEvent: (event: SseEvent) => void) {}

  feed(text: string): void {
    if (this.generalOnly) return this.parser().feed(text);
    if (text === '') return;
    if ((!this.started && text.charCodeAt(0) === 0xfeff) || text.includes('\r')) {
      this.generalOnly = true;
      const pending = this.tail + text;
      this.tail = '';
      return this.parser().feed(pending);
    }
    this.started = true;
    const buffer = this.tail === '' ? text : this.tail + text;
    let from = 0;
    for (let end = buffer.indexOf('\n\n'); end !== -1; end = buffer.indexOf('\n\n', from)) {
      this.block(buffer, from, end);
      from = end + 2;
    }
    this.tail = from === 0 ? buffer : buffer.slice(from);
  }

  /** One event block, [from, end) without its blank line. */
  private block(buffer: string, from: number, end: number): void {
    if (from === end) return;
    const lineEnd = buffer.indexOf('\n', from);
    if (lineEnd === end && buffer.startsWith(DATA, from)) return this.onEvent({ data: buffer.slice(from + DATA.length, end) });
    if (lineEnd > from + EVENT.length && buffer.startsWith(EVENT, from) && buffer.startsWith(DATA, lineEnd + 1) && buffer.indexOf('\n', lineEnd + 1) === end) {
      return this.onEvent({ event: buffer.slice(from + EVENT.length, lineEnd), data: buffer.slice(lineEnd + 1 + DATA.length, end) });
    }
    // A whole block, blank line included: the parser ends it as it would have, and holds nothing over.
    this.parser().feed(`${buffer.slice(from, end)}\n\n`);
  }

  private parser(): EventSourceParser {
    this.general ??= createParser({ onEvent: (message) => this.onEvent(message.event === undefined ? { data: message.data } : { event: message.event, data: message.data }) });
    return this.general;
  }
}
