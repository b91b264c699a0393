import { describe, expect, it } from 'vitest';
import { UsageSniffer } from '../../../../../main/engines/proxy-engine/traffic/usage-sniffer.js';

const anthropicStream = [
  'event: message_start\ndata: {"type":"message_start","message":{"id":"msg_1","type":"message","role":"assistant","content":[],"model":"claude-sonnet-4-5","usage":{"input_tokens":12,"cache_creation_input_tokens":300,"cache_read_input_tokens":4000,"output_tokens":1}}}\n\n',
  'event: content_block_delta\ndata: {"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"the \\"usage\\": {is} here"}}\n\n',
  'event: message_delta\ndata: {"type":"message_delta","delta":{"stop_reason":"end_turn"},"usage":{"output_tokens":87}}\n\nevent: message_stop\ndata: {"type":"message_stop"}\n\n',
].join('');

describe('UsageSniffer', () => {
  it.each([1, 7, 64, 100_000])('reads Anthropic stream usage (later fields win) in chunks of %i bytes', (size) => {
    const s = new UsageSniffer();
    const bytes = Buffer.from(anthropicStream);
    for (let i = 0; i < bytes.length; i += size) s.feed(bytes.subarray(i, i + size));
    expect(s.tokens()).toEqual({ input: 12, output: 87, cacheRead: 4000, cacheWrite: 300 });
    expect(s.streamError).toBeUndefined();
  });

  it('reads an OpenAI usage chunk split across string chunks, cached tokens split off', () => {
    const s = new UsageSniffer();
    s.feed('data: {"choices":[],"usage":{"prompt_tokens":1000,"completion_tok');
    s.feed('ens":20,"prompt_tokens_details":{"cached_tokens":600}}}\n\ndata: [DONE]\n\n');
    expect(s.tokens()).toEqual({ input: 400, output: 20, cacheRead: 600, cacheWrite: 0 });
  });

  it('takes only a "usage" key, not a key that ends in usage, in the same chunk or a Buffer', () => {
    const text = 'data: {"max_usage":{"prompt_tokens":1},"usage":{"prompt_tokens":30,"completion_tokens":4}}\n\n';
    for (const chunk of [text, Buffer.from(text)]) {
      const s = new UsageSniffer();
      s.feed(chunk);
      expect(s.tokens()).toEqual({ input: 30, output: 4, cacheRead: 0, cacheWrite: 0 });
    }
    const only = new UsageSniffer();
    only.feed(Buffer.from('data: {"max_usage":{"prompt_tokens":1}}\n\n'));
    expect(only.tokens()).toBeNull();
  });

  it('reads a usage key spaced as pretty-printed JSON is, and nothing where more than a colon follows the key', () => {
    const spaced = new UsageSniffer();
    spaced.feed('data: {"usage" :\n\t{ "prompt_tokens": 7, "completion_tokens": 2 }}\n\n');
    expect(spaced.tokens()).toEqual({ input: 7, output: 2, cacheRead: 0, cacheWrite: 0 });
    for (const text of ['{"usage":"x","other":{"prompt_tokens":1}}', '{"usage"::{"prompt_tokens":1}}', '{"usage"\u00a0:{"prompt_tokens":1}}']) {
      const s = new UsageSniffer();
      s.feed(`data: ${text}\n\n`);
      expect(s.tokens()).toBeNull();
    }
  });

  it('reports no usage as null', () => {
    const s = new UsageSniffer();
    s.feed('data: {"choices":[{"delta":{"content":"hi"}}]}\n\n');
    expect(s.tokens()).toBeNull();
    expect(new UsageSniffer().readBody('{"id":"x"}').tokens()).toBeNull();
  });

  it('reads the usage of a whole body of either format', () => {
    expect(new UsageSniffer().readBody(Buffer.from('{"id":"c","choices":[],"usage":{"prompt_tokens":9,"completion_tokens":3,"total_tokens":12}}')).tokens()).toEqual({ input: 9, output: 3, cacheRead: 0, cacheWrite: 0 });
    expect(new UsageSniffer().readBody('{"id":"m","content":[],"usage":{"input_tokens":5,"output_tokens":2,"cache_read_input_tokens":1}}').tokens()).toEqual({ input: 5, output: 2, cacheRead: 1, cacheWrite: 0 });
  });

  it('sees an Anthropic error event and an OpenAI error data line, not the words inside text', () => {
    const a = new UsageSniffer();
    a.feed('event: content_block_delta\ndata: {"delta":{"text":"event: error"}}\n\n');
    expect(a.streamError).toBeUndefined();
    a.feed('event: error\ndata: {"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}\n\n');
    expect(a.streamError).toBe('Overloaded');
    const o = new UsageSniffer();
    o.feed('data: {"error":{"message":"upstream died","type":"server_error"}}\n\n');
    expect(o.streamError).toBe('upstream died');
  });

  it.each([
    ['1e308', '1e308'],
    ['a negative count', '-5'],
    ['a fractional count', '2.5'],
    ['2^60 (past the safe integers)', String(2 ** 60)],
    ['a count as text', '"12"'],
  ])('refuses %s from an upstream and counts it (issue 27 point 11)', (_name, bad) => {
    const anthropic = new UsageSniffer().readBody(`{"usage":{"input_tokens":${bad},"output_tokens":4,"cache_read_input_tokens":${bad}}}`);
    expect(anthropic.tokens()).toEqual({ input: 0, output: 4, cacheRead: 0, cacheWrite: 0 });
    expect(anthropic.refused).toBe(2);
    const openai = new UsageSniffer();
    openai.feed(`data: {"choices":[],"usage":{"prompt_tokens":${bad},"completion_tokens":${bad},"prompt_tokens_details":{"cached_tokens":${bad}}}}\n\n`);
    expect(openai.tokens()).toBeNull();
    expect(openai.refused).toBe(3);
  });

  it('takes null as absent, not as a refused number', () => {
    const s = new UsageSniffer().readBody('{"usage":{"input_tokens":3,"output_tokens":4,"cache_creation_input_tokens":null}}');
    expect(s.tokens()).toEqual({ input: 3, output: 4, cacheRead: 0, cacheWrite: 0 });
    expect(s.refused).toBe(0);
  });
});
