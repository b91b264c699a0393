import { describe, expect, it } from 'vitest';
import { scanBody } from '../../../../../main/engines/proxy-engine/traffic/body-scan.js';

const scan = (text: string) => scanBody(Buffer.from(text));

describe('scanBody', () => {
  it('reads model, stream, metadata.user_id and messages from a Claude Code body without parsing it', () => {
    const body = JSON.stringify({
      model: 'claude-sonnet-4-5',
      messages: [{ role: 'user', content: [{ type: 'text', text: 'a "model": "other" {[ tricky \\" text' }] }],
      system: [{ type: 'text', text: 'sys', cache_control: { type: 'ephemeral' } }],
      tools: [{ name: 'Bash', input_schema: { type: 'object', properties: { model: { type: 'string' } } } }],
      metadata: { user_id: 'user_abc_session_1' },
      thinking: { type: 'enabled', budget_tokens: 4000 },
      stream: true,
    });
    const tools = body.indexOf('"tools":') + '"tools":'.length;
    const toolsEnd = body.indexOf(',"metadata"');
    expect(scan(body)).toEqual({ model: 'claude-sonnet-4-5', stream: true, userId: 'user_abc_session_1', hasMessages: true, mayHoldThinking: false, longStrings: [], toolsSpan: [tools, toolsEnd] });
    expect(JSON.parse(body.slice(tools, toolsEnd))).toEqual(JSON.parse(body).tools);
  });

  it('agrees with JSON.parse on spacing, escapes, unicode and key order', () => {
    const text = '{\n  "stream" : false ,\n  "messages": [] ,\n  "model" : "m\\u00e9-\\"x\\"" \n}\n';
    expect(scan(text)).toEqual({ model: JSON.parse(text).model, stream: false, userId: undefined, hasMessages: true, mayHoldThinking: false, longStrings: [] });
    expect(scan('{"model":"ünï","messages":[]}')?.model).toBe('ünï');
    expect(scan('{"model":"a","model":"b","messages":[]}')?.model).toBe('b');
    expect(scan('{}')).toEqual({ model: undefined, stream: false, userId: undefined, hasMessages: false, mayHoldThinking: false, longStrings: [] });
  });

  it.each([
    ['Claude Code’s shape', { user_id: 'user_ab12_account_0f_session_9e' }],
    ['non-ASCII', { user_id: 'usér_’😀' }],
    ['escapes', { user_id: 'a"b\\c\nd' }],
    ['other keys too', { user_id: 'u', extra: 1 }],
    ['a number', { user_id: 42 }],
    ['nothing', {}],
  ])('reads metadata.user_id as JSON.parse does (%s)', (_name, metadata) => {
    const text = JSON.stringify({ model: 'm', messages: [], metadata });
    expect(scan(text)?.userId).toEqual((JSON.parse(text) as { metadata: { user_id?: unknown } }).metadata.user_id);
    const spaced = text.replace('{"user_id":', '{ "user_id" : ');
    expect(scan(spaced)?.userId).toEqual((JSON.parse(spaced) as { metadata: { user_id?: unknown } }).metadata.user_id);
  });

  it('reports non-string models and missing messages as they are, for the 400s', () => {
    expect(scan('{"model":42,"messages":{}}')).toMatchObject({ model: 42, hasMessages: false });
    expect(scan('{"model":null,"messages":"x"}')).toMatchObject({ model: null, hasMessages: false });
  });

  it('flags messages that may hold a thinking block', () => {
    const body = JSON.stringify({ model: 'm', messages: [{ role: 'assistant', content: [{ type: 'thinking', thinking: 't', signature: '' }] }] });
    expect(scan(body)?.mayHoldThinking).toBe(true);
    // The type spelled with escapes is still a thinking block to JSON.parse, so to the scan too.
    expect(scan('{"model":"m","messages":[{"role":"assistant","content":[{"type":"thin\\u006bing","thinking":"t"}]}]}')?.mayHoldThinking).toBe(true);
  });

  it('does not take the word in text, in a tool result or outside messages for a thinking block', () => {
    const prose = JSON.stringify({
      model: 'm',
      messages: [
        { role: 'user', content: [{ type: 'text', text: 'I was "thinking" about it' }] },
        { role: 'user', content: [{ type: 'tool_result', tool_use_id: 't', content: 'const t = "thinking";\n'.repeat(20) }] },
      ],
      thinking: { type: 'enabled', budget_tokens: 1024 },
      system: [{ type: 'text', text: 'thinking' }],
    });
    expect(scan(prose)?.mayHoldThinking).toBe(false);
    // A message that is the bare word is a false alarm the scan accepts: it only costs a parse.
    expect(scan('{"model":"m","messages":[{"role":"user","content":"thinking"}]}')?.mayHoldThinking).toBe(true);
    // Tokens of the word's length, or one letter off, are not it.
    for (const word of ['thinkinG', 'thinkinh', 'xhinking', 'assistan', 'thinking ', 'thinkin']) {
      expect(scan(`{"model":"m","messages":[{"role":"user","content":${JSON.stringify(word)}}]}`)?.mayHoldThinking).toBe(false);
    }
  });

  it.each([
    ['not an object', '[1,2]'],
    ['empty', ''],
    ['unterminated string', '{"model":"abc'],
    ['unclosed object', '{"model":"a","messages":[{"x":1}'],
    ['trailing garbage', '{"model":"a"} x'],
    ['missing colon', '{"model" "a"}'],
    ['missing comma', '{"model":"a" "messages":[]}'],
    ['escaped key', '{"mod\\u0065l":"a"}'],
    ['bad metadata', '{"metadata":{"user_id":tru},"model":"a"}'],
  ])('gives up on %s (the caller parses and answers 400)', (_name, text) => {
    expect(scan(text)).toBeUndefined();
  });
});
