import { describe, expect, it } from 'vitest';
import { estimateInputTokens, stripUnsignedThinking, type AnthropicRequest } from '../../../../main/engines/translate/index.js';

describe('stripUnsignedThinking', () => {
  it('removes thinking blocks without a signature and keeps signed ones', () => {
    const req: AnthropicRequest = {
      model: 'm',
      max_tokens: 10,
      messages: [
        { role: 'user', content: 'q' },
        { role: 'assistant', content: [{ type: 'thinking', thinking: 'from openai', signature: '' }, { type: 'text', text: 'a' }] },
        { role: 'assistant', content: [{ type: 'thinking', thinking: 'signed', signature: 'Eq==' }] },
      ],
    };
    const out = stripUnsignedThinking(req);
    expect(out.messages[1]!.content).toEqual([{ type: 'text', text: 'a' }]);
    expect(out.messages[2]).toBe(req.messages[2]);
    expect(req.messages[1]!.content).toHaveLength(2); // input not mutated
  });

  it('returns the same object when nothing changes', () => {
    const req: AnthropicRequest = { model: 'm', max_tokens: 1, messages: [{ role: 'user', content: 'q' }] };
    expect(stripUnsignedThinking(req)).toBe(req);
  });
});

describe('estimateInputTokens', () => {
  it.each([
    ['one short message', { messages: [{ role: 'user' as const, content: 'abcdefgh' }] }, 2 + 4],
    ['system prompt counts', { system: 'x'.repeat(400), messages: [] }, 100],
    ['images count a fixed 1600', { messages: [{ role: 'user' as const, content: [{ type: 'image' as const, source: { type: 'url' as const, url: 'u' } }] }] }, 4 + 1600],
    ['nothing still costs one token', { messages: [] }, 1],
  ])('%s', (_name, req, expected) => {
    expect(estimateInputTokens(req)).toBe(expected);
  });

  it('grows with tool definitions', () => {
    const messages = [{ role: 'user' as const, content: 'hi' }];
    const withTools = estimateInputTokens({ messages, tools: [{ name: 'Read', description: 'Reads a file.', input_schema: { type: 'object', properties: { p: { type: 'string' } } } }] });
    expect(withTools).toBeGreaterThan(estimateInputTokens({ messages }) + 10);
  });
});
