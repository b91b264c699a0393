import { describe, expect, it } from 'vitest';
import { ResponsesCollector } from '../../../../../main/engines/translate/anthropic-responses/collect.js';
import { responsesFailure } from '../../../../../main/engines/translate/anthropic-responses/failure.js';
import { anthropicRequestToResponses, claudeCodeSession } from '../../../../../main/engines/translate/anthropic-responses/request.js';
import { ResponsesToAnthropicStream } from '../../../../../main/engines/translate/anthropic-responses/stream.js';
import { NAME_LIMIT, shortenCallId, shortenName, ToolNames } from '../../../../../main/engines/translate/anthropic-responses/tool-names.js';
import { openAIRequestToResponses, responsesToOpenAI } from '../../../../../main/engines/translate/openai-responses/index.js';

describe('claudeCodeSession', () => {
  it.each([
    ['{"device_id":"d","session_id":"s-1"}', 's-1'],
    ['user_abc_account_x_session_0b6f2f9c-1a77', '0b6f2f9c-1a77'],
    ['{"session_id":""}', undefined],
    ['{not json', undefined],
    ['plain-user', undefined],
    [undefined, undefined],
  ])('%s → %s', (input, expected) => {
    expect(claudeCodeSession(input)).toBe(expected);
  });
});

describe('tool names and call ids', () => {
  it('leaves names within the limit alone', () => {
    expect(shortenName('Read')).toBe('Read');
    const exact = 'x'.repeat(NAME_LIMIT);
    expect(shortenName(exact)).toBe(exact);
  });

  it('shortens long names to the limit, the same way every time, and maps them back', () => {
    const long = `mcp__${'server'.repeat(10)}__do_the_thing`;
    const short = shortenName(long);
    expect(short.length).toBeLessThanOrEqual(NAME_LIMIT);
    expect(short.startsWith('mcp__do_the_thing_')).toBe(true);
    expect(shortenName(long)).toBe(short);
    const names = new ToolNames([long]);
    expect(names.upstream(long)).toBe(short);
    expect(names.client(short)).toBe(long);
    expect(names.client('unknown')).toBe('unknown');
  });

  it('two long names that share a head stay distinct', () => {
    const a = `${'a'.repeat(70)}_one`;
    const b = `${'a'.repeat(70)}_two`;
    expect(shortenName(a)).not.toBe(shortenName(b));
  });

  it('caps call ids so a result still matches its call', () => {
    const id = `call_${'z'.repeat(80)}`;
    expect(shortenCallId(id).length).toBe(NAME_LIMIT);
    expect(shortenCallId(id)).toBe(shortenCallId(id));
    expect(shortenCallId('call_1')).toBe('call_1');
  });
});

describe('responsesFailure', () => {
  it.each([
    [{ type: 'error', code: 'rate_limit_exceeded', message: 'slow down' }, 429, 'slow down'],
    [{ error: { type: 'usage_limit_reached', message: 'The usage limit has been reached', resets_in_seconds: 90.2 } }, 429, 'The usage limit has been reached'],
    [{ response: { error: { code: 'server_error', message: 'oops' } } }, 500, 'oops'],
    [{ error: { code: 'context_length_exceeded', message: 'too big' } }, 400, 'prompt is too long: too big'],
    [{ error: { code: 'token_expired' } }, 401, 'ChatGPT backend failed: token_expired'],
    [{}, 500, 'ChatGPT backend failed without a reason'],
    ['not an object', 500, 'ChatGPT backend failed without a reason'],
  ])('%j → %i', (payload, status, message) => {
    const failure = responsesFailure(payload);
    expect(failure.status).toBe(status);
    expect(failure.message).toBe(message);
  });

  it('reads the reset time in seconds or as a unix time', () => {
    expect(responsesFailure({ error: { type: 'usage_limit_reached', resets_in_seconds: 90.2 } }).resetsInSeconds).toBe(91);
    const at = Math.floor(Date.now() / 1000) + 600;
    const seconds = responsesFailure({ error: { type: 'usage_limit_reached', resets_at: at } }).resetsInSeconds!;
    expect(seconds).toBeGreaterThan(590);
    expect(seconds).toBeLessThanOrEqual(600);
    expect(responsesFailure({ error: { type: 'usage_limit_reached', resets_in_seconds: -1 } }).resetsInSeconds).toBeUndefined();
  });
});

describe('ResponsesCollector (a whole answer for a client that did not stream)', () => {
  const item = { id: 'msg_1', type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'hi' }] };

  it('takes the items from output_item.done when the completed response lists none', () => {
    const c = new ResponsesCollector();
    c.push({ type: 'response.output_item.done', item });
    c.push({ type: 'response.completed', response: { id: 'resp_1', status: 'completed', output: [], usage: { input_tokens: 3, output_tokens: 1 } } });
    const result = c.finish();
    expect('response' in result && result.response.output).toEqual([item]);
  });

  it('prefers the completed response output when it has one', () => {
    const c = new ResponsesCollector();
    c.push({ type: 'response.output_item.done', item });
    const other = { ...item, content: [{ type: 'output_text', text: 'final' }] };
    c.push({ type: 'response.completed', response: { output: [other] } });
    const result = c.finish();
    expect('response' in result && result.response.output).toEqual([other]);
  });

  it('reports a failure inside the stream, and a stream cut before completion', () => {
    const failed = new ResponsesCollector();
    failed.push({ type: 'response.failed', response: { error: { code: 'rate_limit_exceeded', message: 'later' } } });
    failed.push({ type: 'response.completed', response: {} });
    expect(failed.finish()).toEqual({ failure: { status: 429, message: 'later' } });
    expect(new ResponsesCollector().finish()).toEqual({ failure: { status: 502, message: 'The ChatGPT backend closed the stream before the response completed' } });
  });
});

describe('reasoning round trip', () => {
  it('a thinking block the backend signed goes back as its reasoning item; others are dropped', () => {
    const stream = new ResponsesToAnthropicStream();
    const events = [
      ...stream.push({ type: 'response.created', response: { id: 'resp_1' } }),
      ...stream.push({ type: 'response.output_item.done', item: { id: 'rs_1', type: 'reasoning', summary: [], encrypted_content: 'gAAAAABsig' } }),
      ...stream.push({ type: 'response.completed', response: {} }),
    ];
    const signature = events.find((e) => (e.data.delta as { type?: string } | undefined)?.type === 'signature_delta');
    expect(signature?.data.delta).toEqual({ type: 'signature_delta', signature: 'gAAAAABsig' });
    const { body } = anthropicRequestToResponses({
      model: 'm',
      max_tokens: 10,
      messages: [
        { role: 'user', content: 'q' },
        { role: 'assistant', content: [{ type: 'thinking', thinking: '', signature: 'gAAAAABsig' }, { type: 'thinking', thinking: 'claude', signature: 'EqQBClaude' }, { type: 'thinking', thinking: 'none' }, { type: 'text', text: 'a' }] },
      ],
    });
    expect(body.input.filter((i) => i.type === 'reasoning')).toEqual([{ type: 'reasoning', summary: [], encrypted_content: 'gAAAAABsig' }]);
  });

  it('a reasoning item with nothing to show adds no block', () => {
    const stream = new ResponsesToAnthropicStream();
    const events = [
      ...stream.push({ type: 'response.created', response: { id: 'resp_1' } }),
      ...stream.push({ type: 'response.output_item.added', item: { id: 'rs_1', type: 'reasoning', summary: [] } }),
      ...stream.push({ type: 'response.output_item.done', item: { id: 'rs_1', type: 'reasoning', summary: [] } }),
      ...stream.push({ type: 'response.completed', response: {} }),
    ];
    expect(events.map((e) => e.event)).toEqual(['message_start', 'message_delta', 'message_stop']);
  });
});

describe('OpenAI chat clients through the Anthropic pivot', () => {
  it('a chat request with tools and a tool loop becomes a Responses request', () => {
    const { body } = openAIRequestToResponses({
      model: 'gpt-5.1-codex',
      reasoning_effort: 'high',
      messages: [
        { role: 'system', content: 'Be brief.' },
        { role: 'user', content: 'Read a.txt' },
        { role: 'assistant', content: null, tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'read', arguments: '{"p":"a.txt"}' } }] },
        { role: 'tool', tool_call_id: 'call_1', content: 'A' },
      ],
      tools: [{ type: 'function', function: { name: 'read', parameters: { type: 'object', properties: { p: { type: 'string' } } } } }],
    });
    expect(body.instructions).toBe('Be brief.');
    expect(body.reasoning).toEqual({ effort: 'high', summary: 'auto' });
    expect(body.input).toEqual([
      { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'Read a.txt' }] },
      { type: 'function_call', call_id: 'call_1', name: 'read', arguments: '{"p":"a.txt"}' },
      { type: 'function_call_output', call_id: 'call_1', output: 'A' },
    ]);
    expect(body.tools).toEqual([{ type: 'function', name: 'read', parameters: { type: 'object', properties: { p: { type: 'string' } } }, strict: false }]);
  });

  it('a whole Responses answer becomes a chat.completion with usage', () => {
    const res = responsesToOpenAI(
      { id: 'resp_9', model: 'gpt-5.1-codex', status: 'completed', output: [{ type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'ok' }] }], usage: { input_tokens: 10, input_tokens_details: { cached_tokens: 4 }, output_tokens: 2 } },
      { created: 1 },
    );
    expect(res.choices[0]!.message.content).toBe('ok');
    expect(res.choices[0]!.finish_reason).toBe('stop');
    expect(res.usage).toEqual({ prompt_tokens: 10, completion_tokens: 2, total_tokens: 12, prompt_tokens_details: { cached_tokens: 4 } });
  });
});
