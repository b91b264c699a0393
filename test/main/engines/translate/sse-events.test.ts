import fc from 'fast-check';
import { createParser } from 'eventsource-parser';
import { describe, expect, it } from 'vitest';
import { SseEventReader, type SseEvent } from '../../../../main/engines/translate/sse-events.js';

/** What eventsource-parser, the reference implementation of the spec, makes of the same text. */
function reference(parts: string[]): SseEvent[] {
  const out: SseEvent[] = [];
  const parser = createParser({ onEvent: (m) => out.push(m.event === undefined ? { data: m.data } : { event: m.event, data: m.data }) });
  for (const part of parts) parser.feed(part);
  return out;
}

function read(parts: string[]): SseEvent[] {
  const out: SseEvent[] = [];
  const reader = new SseEventReader((e) => out.push(e));
  for (const part of parts) reader.feed(part);
  return out;
}

const streams: Array<[string, string]> = [
  ['OpenAI data lines', 'data: {"a":1}\n\ndata: {"b":2}\n\ndata: [DONE]\n\n'],
  ['Anthropic named events', 'event: message_start\ndata: {"type":"message_start"}\n\nevent: ping\ndata: {"type": "ping"}\n\n'],
  ['comments and keep-alives', ': OPENROUTER PROCESSING\n\ndata: x\n\n:\n\ndata: y\n\n'],
  ['data on several lines', 'data: one\ndata: two\n\nevent: e\ndata: a\ndata: b\n\n'],
  ['no space after the colon, and two', 'data:x\n\ndata:  y\n\nevent:e\ndata: z\n\n'],
  ['id and retry fields', 'id: 7\ndata: x\n\nretry: 1000\n\ndata: y\nid: 8\n\n'],
  ['an empty event name and empty data', 'event: \ndata: x\n\ndata: \n\ndata\n\n'],
  ['extra blank lines', '\n\n\ndata: x\n\n\n\ndata: y\n\n\n'],
  ['CRLF line ends', 'data: x\r\n\r\nevent: e\r\ndata: y\r\n\r\n'],
  ['CR line ends after LF ones', 'data: x\n\ndata: y\r\rdata: z\r\n\r\n'],
  ['a byte-order mark', '\ufeffdata: x\n\ndata: y\n\n'],
  ['an event field alone', 'event: e\n\ndata: x\n\n'],
  ['unicode', 'data: {"t":"’😀 é"}\n\n'],
  ['a last event without its blank line, flushed as the translators do', 'data: x\n\ndata: tail\n\n\n'],
];

describe('SseEventReader', () => {
  it.each(streams)('reads %s as eventsource-parser does, whole or cut at any point', (_name, text) => {
    const whole = reference([text]);
    expect(read([text])).toEqual(whole);
    for (let cut = 0; cut <= text.length; cut++) expect(read([text.slice(0, cut), text.slice(cut)])).toEqual(whole);
  });

  it('agrees with eventsource-parser on any stream cut into any pieces', () => {
    const line = fc.oneof(
      fc.constantFrom('data: ', 'data:', 'event: ', 'event:', 'id: ', 'retry: ', ': ', '', 'data'),
      fc.string({ unit: fc.constantFrom('a', ' ', ':', '{', '"', '’', '😀', '\r') }),
    );
    const stream = fc.array(fc.tuple(line, fc.string({ maxLength: 6 }), fc.constantFrom('\n', '\n\n', '\r\n', '\r', '\n\n\n')), { maxLength: 12 }).map((ls) => ls.map(([f, v, end]) => f + v + end).join(''));
    fc.assert(
      fc.property(stream, fc.array(fc.nat(), { maxLength: 4 }), (text, cuts) => {
        const points = [...new Set(cuts.map((c) => c % (text.length + 1)))].sort((a, b) => a - b);
        const parts = [0, ...points, text.length].slice(1).map((end, i, ends) => text.slice(i === 0 ? 0 : ends[i - 1], end));
        expect(read(parts)).toEqual(reference(parts));
      }),
      { numRuns: 2000 },
    );
  });
});
