import { describe, expect, it } from 'vitest';
import { contentChunk, matchContentDelta } from '../../../../main/engines/translate/openai-chunk.js';
import { createOpenAIToAnthropicSse } from '../../../../main/engines/translate/index.js';

/** A line as the translator reads it: the chunk, or undefined for a line it parses. */
const readContentDelta = (data: string) => {
  const token = matchContentDelta(data);
  return token && contentChunk(token);
};

const base = { id: 'chatcmpl-1', object: 'chat.completion.chunk', created: 1767225600, model: 'gpt-4o' };
const token = (content: string, extra: object = {}, choiceExtra: object = {}) => JSON.stringify({ ...base, ...extra, choices: [{ index: 0, delta: { content }, ...choiceExtra, finish_reason: null }] });

describe('matchContentDelta + contentChunk', () => {
  it.each([
    ['plain', token('Hello')],
    ['escapes and unicode', token('line "one"\n\ttab \\ café ’ 😀')],
    ['OpenAI’s extra fields', token('hi', { service_tier: 'default', system_fingerprint: 'fp_1' })],
    ['a null fingerprint and usage, obfuscation after choices', JSON.stringify({ ...base, system_fingerprint: null, choices: [{ index: 0, delta: { content: 'x' }, logprobs: null, finish_reason: null }], usage: null, obfuscation: 'abc' })],
    ['an empty token', token('')],
    // The first chunk's role is not read by the translator: it starts the message all the same.
    ['the first chunk, with a role', JSON.stringify({ ...base, choices: [{ index: 0, delta: { role: 'assistant', content: '' }, finish_reason: null }] })],
  ])('reads a token chunk (%s) as JSON.parse would', (_name, line) => {
    const parsed = JSON.parse(line) as { id: string; object: string; created: number; model: string; choices: Array<{ delta: { content: string } }> };
    expect(readContentDelta(line)).toEqual({ ...base, id: parsed.id, model: parsed.model, choices: [{ index: 0, delta: { content: parsed.choices[0]!.delta.content }, finish_reason: null }] });
  });

  it.each([
    ['a role other than the assistant', JSON.stringify({ ...base, choices: [{ index: 0, delta: { role: 'user', content: 'x' }, finish_reason: null }] })],
    ['a raw control character, which JSON.parse refuses', token('x').replace('"x"', '"a\u0001b"')],
    ['a finish', JSON.stringify({ ...base, choices: [{ index: 0, delta: { content: 'x' }, finish_reason: 'stop' }] })],
    ['usage', JSON.stringify({ ...base, choices: [], usage: { prompt_tokens: 1, completion_tokens: 2, total_tokens: 3 } })],
    ['usage beside a token', JSON.stringify({ ...base, choices: [{ index: 0, delta: { content: 'x' }, finish_reason: null }], usage: { prompt_tokens: 1 } })],
    ['tool calls', JSON.stringify({ ...base, choices: [{ index: 0, delta: { tool_calls: [{ index: 0, function: { arguments: '{}' } }] }, finish_reason: null }] })],
    ['reasoning', JSON.stringify({ ...base, choices: [{ index: 0, delta: { reasoning_content: 'hmm' }, finish_reason: null }] })],
    ['content and reasoning', JSON.stringify({ ...base, choices: [{ index: 0, delta: { content: 'a', reasoning_content: 'b' }, finish_reason: null }] })],
    ['a second choice', JSON.stringify({ ...base, choices: [{ index: 0, delta: { content: 'a' }, finish_reason: null }, { index: 1, delta: { content: 'b' }, finish_reason: null }] })],
    ['null content', JSON.stringify({ ...base, choices: [{ index: 0, delta: { content: null }, finish_reason: null }] })],
    ['another key order', JSON.stringify({ object: base.object, id: base.id, created: base.created, model: base.model, choices: [{ index: 0, delta: { content: 'x' }, finish_reason: null }] })],
    ['spaces', token('x').replaceAll(':', ': ')],
    ['an error', JSON.stringify({ error: { message: 'boom' } })],
  ])('leaves %s to JSON.parse', (_name, line) => {
    expect(readContentDelta(line)).toBeUndefined();
  });

  it('translates a stream to the same Anthropic events whether its tokens are read or parsed', () => {
    const lines = [
      JSON.stringify({ ...base, choices: [{ index: 0, delta: { role: 'assistant', content: '' }, finish_reason: null }] }),
      ...['Hel', 'lo "w"', '\n’😀', ''].map((t) => token(t, { system_fingerprint: 'fp' })),
      JSON.stringify({ ...base, choices: [{ index: 0, delta: { reasoning_content: 'then' }, finish_reason: null }] }),
      token('more'),
      JSON.stringify({ ...base, choices: [{ index: 0, delta: {}, finish_reason: 'stop' }] }),
      JSON.stringify({ ...base, choices: [], usage: { prompt_tokens: 9, completion_tokens: 4, total_tokens: 13 } }),
    ];
    const run = (data: string[]) => {
      const t = createOpenAIToAnthropicSse({ model: 'claude', id: 'msg_1' });
      return data.map((d) => t.feed(`data: ${d}\n\n`)).join('') + t.feed('data: [DONE]\n\n') + t.end();
    };
    // A space after the opening brace is the same JSON, but no token chunk to the fast reader.
    const parsedOnly = lines.map((l) => `{ ${l.slice(1)}`);
    expect(parsedOnly.every((l) => readContentDelta(l) === undefined)).toBe(true);
    expect(lines.filter((l) => readContentDelta(l) !== undefined)).toHaveLength(6);
    expect(run(lines)).toBe(run(parsedOnly));
  });

  it.each([
    ['plain text', 'Hello world', true],
    ['an empty token', '', true],
    ['quotes', 'say "hi"', false],
    ['a newline', 'a\nb', false],
    ['a backslash', 'C:\\dir', false],
    ['an astral character (a surrogate pair)', 'ok 😀', false],
    ['a typographic quote', 'it’s', true],
  ])('marks a literal verbatim only when it is JSON.stringify of its text (%s)', (_name, text, verbatim) => {
    const token = matchContentDelta(JSON.stringify({ ...base, choices: [{ index: 0, delta: { content: text }, finish_reason: null }] }));
    expect(token?.verbatim).toBe(verbatim);
    expect(JSON.parse(token!.literal)).toBe(text);
    if (verbatim) expect(token!.literal).toBe(JSON.stringify(text));
  });

  it('drops a token whose literal JSON.parse refuses, as it drops any line it cannot parse', () => {
    const bad = `{"id":"c","object":"chat.completion.chunk","created":1,"model":"m","choices":[{"index":0,"delta":{"content":"a\u0001"},"finish_reason":null}]}`;
    expect(() => JSON.parse(bad)).toThrow();
    expect(matchContentDelta(bad)?.verbatim).toBe(false);
    expect(readContentDelta(bad)).toBeUndefined();
    const t = createOpenAIToAnthropicSse({ model: 'claude', id: 'msg_1' });
    const out = t.feed(`data: ${token('a')}\n\ndata: ${bad}\n\ndata: ${token('b')}\n\n`) + t.end();
    expect(out).not.toContain('\u0001');
    expect(out.match(/text_delta/g)).toHaveLength(2);
  });
});
