import { describe, expect, it } from 'vitest';
import {
  createAnthropicToOpenAISse,
  createOpenAIToAnthropicSse,
  encodeAnthropicEvent,
  OpenAIToAnthropicStream,
  type SseTranslator,
} from '../../../../main/engines/translate/index.js';
import { expectGoldenText, goldenCases } from '../../../fixtures/translate/golden.js';

const created = 1767225600;

/** Feeds the upstream text in pieces of `size` characters, as a socket would deliver it. */
function run(translator: SseTranslator, input: string, size = input.length): string {
  let out = '';
  for (let i = 0; i < input.length; i += size) out += translator.feed(input.slice(i, i + size));
  return out + translator.end();
}

describe('OpenAI SSE → Anthropic SSE (golden)', () => {
  for (const c of goldenCases('stream-openai-to-anthropic', 'sse')) {
    it(c.name, () => {
      const whole = run(createOpenAIToAnthropicSse(c.options), c.input);
      expectGoldenText(whole, c.expectedPath);
      for (const size of [1, 7, 64]) expect(run(createOpenAIToAnthropicSse(c.options), c.input, size)).toBe(whole);
    });
  }
});

describe('Anthropic SSE → OpenAI SSE (golden)', () => {
  for (const c of goldenCases('stream-anthropic-to-openai', 'sse')) {
    it(c.name, () => {
      const options = { created, ...c.options };
      const whole = run(createAnthropicToOpenAISse(options), c.input);
      expectGoldenText(whole, c.expectedPath);
      for (const size of [1, 7, 64]) expect(run(createAnthropicToOpenAISse(options), c.input, size)).toBe(whole);
    });
  }
});

/** The event names of an Anthropic SSE text, in order. */
function eventNames(sse: string): string[] {
  return [...sse.matchAll(/^event: (\S+)$/gm)].map((m) => m[1]!);
}

describe('stream state', () => {
  it('an upstream that ends without any chunk still yields a complete Anthropic message', () => {
    const t = createOpenAIToAnthropicSse({ model: 'claude-x', id: 'msg_empty' });
    expect(eventNames(t.feed('') + t.end())).toEqual(['message_start', 'message_delta', 'message_stop']);
  });

  it('nothing follows message_stop, and end() after [DONE] adds nothing', () => {
    const t = createOpenAIToAnthropicSse();
    const out = t.feed('data: {"id":"c","object":"chat.completion.chunk","created":1,"model":"m","choices":[{"index":0,"delta":{"content":"a"},"finish_reason":"stop"}]}\n\ndata: [DONE]\n\n');
    expect(t.done).toBe(true);
    expect(eventNames(out)).toEqual(['message_start', 'content_block_start', 'content_block_delta', 'content_block_stop', 'message_delta', 'message_stop']);
    expect(t.end()).toBe('');
    expect(t.feed('data: {"id":"c","object":"chat.completion.chunk","created":1,"model":"m","choices":[{"index":0,"delta":{"content":"late"}}]}\n\n')).toBe('');
  });

  it('fail() closes an open Anthropic stream with an error event', () => {
    const t = createOpenAIToAnthropicSse();
    t.feed('data: {"id":"c","object":"chat.completion.chunk","created":1,"model":"m","choices":[{"index":0,"delta":{"content":"a"}}]}\n\n');
    const out = t.fail(502, 'upstream connection reset');
    expect(out).toBe('event: error\ndata: {"type":"error","error":{"type":"api_error","message":"upstream connection reset"}}\n\n');
    expect(t.end()).toBe('');
  });

  it('fail() on an OpenAI client stream sends an error object and no [DONE]', () => {
    const t = createAnthropicToOpenAISse({ created });
    t.feed('event: message_start\ndata: {"type":"message_start","message":{"id":"msg_1","model":"m","usage":{"input_tokens":1,"output_tokens":1}}}\n\n');
    expect(t.fail(504, 'timed out')).toBe('data: {"error":{"message":"timed out","type":"server_error","param":null,"code":"internal_server_error"}}\n\n');
  });

  it('a stream cut before message_stop ends with a finish chunk and [DONE]', () => {
    const t = createAnthropicToOpenAISse({ created, model: 'client-model' });
    const out = run(t, 'event: message_start\ndata: {"type":"message_start","message":{"id":"msg_cut","model":"m","usage":{"input_tokens":1,"output_tokens":1}}}\n\n');
    expect(out.trim().split('\n\n').map((l) => l.slice(6))).toEqual([
      `{"id":"chatcmpl-cut","object":"chat.completion.chunk","created":${created},"model":"client-model","choices":[{"index":0,"delta":{"role":"assistant","content":""},"finish_reason":null}]}`,
      `{"id":"chatcmpl-cut","object":"chat.completion.chunk","created":${created},"model":"client-model","choices":[{"index":0,"delta":{},"finish_reason":"stop"}]}`,
      '[DONE]',
    ]);
  });

  it('never leaves two blocks open: text after a tool call opens a new block after closing the tool', () => {
    const s = new OpenAIToAnthropicStream({ id: 'msg_x', model: 'm' });
    const chunk = (delta: object) => ({ id: 'c', object: 'chat.completion.chunk' as const, created: 1, model: 'm', choices: [{ index: 0, delta, finish_reason: null }] });
    const events = [
      ...s.push(chunk({ tool_calls: [{ index: 0, id: 'call_1', function: { name: 'f', arguments: '{}' } }] })),
      ...s.push(chunk({ content: 'after' })),
      ...s.end(),
    ].map((e) => `${e.event}:${String((e.data as { index?: number }).index ?? '')}`);
    expect(events).toEqual([
      'message_start:',
      'content_block_start:0',
      'content_block_delta:0',
      'content_block_stop:0',
      'content_block_start:1',
      'content_block_delta:1',
      'content_block_stop:1',
      'message_delta:',
      'message_stop:',
    ]);
  });
});

describe('encodeAnthropicEvent fast path for text deltas', () => {
  it.each(['plain', '', 'quotes " and \\ backslash', 'line\nbreak\ttab', 'unicode é 😀 \u2028', '</script>'])('%j encodes exactly as JSON.stringify', (text) => {
    const data = { type: 'content_block_delta', index: 3, delta: { type: 'text_delta', text } };
    expect(encodeAnthropicEvent({ event: 'content_block_delta', data } as never)).toBe(`event: content_block_delta\ndata: ${JSON.stringify(data)}\n\n`);
  });

  it('falls back for any other shape', () => {
    const data = { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: 'x' }, extra: 1 };
    expect(encodeAnthropicEvent({ event: 'content_block_delta', data } as never)).toBe(`event: content_block_delta\ndata: ${JSON.stringify(data)}\n\n`);
  });
});
