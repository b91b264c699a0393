import { describe, expect, it } from 'vitest';
import { openAIRequestToAnthropic, thinkingFor, type OpenAIRequest } from '../../../../main/engines/translate/index.js';
import { expectGoldenJson, goldenCases } from '../../../fixtures/translate/golden.js';

describe('openAIRequestToAnthropic (golden)', () => {
  for (const c of goldenCases('request-openai-to-anthropic', 'json')) {
    it(c.name, () => {
      expectGoldenJson(openAIRequestToAnthropic(JSON.parse(c.input) as OpenAIRequest, c.options), c.expectedPath);
    });
  }
});

describe('openAIRequestToAnthropic (rows)', () => {
  const base: OpenAIRequest = { model: 'claude-x', messages: [{ role: 'user', content: 'hi' }] };

  it.each([
    [undefined, 8192, undefined],
    ['none' as const, 8192, undefined],
    ['minimal' as const, 8192, undefined],
    ['low' as const, 8192, { type: 'enabled', budget_tokens: 2048 }],
    ['medium' as const, 8192, { type: 'enabled', budget_tokens: 8191 }],
    ['high' as const, 64_000, { type: 'enabled', budget_tokens: 24_576 }],
    ['high' as const, 1000, undefined],
  ])('reasoning_effort %s with max_tokens %d → thinking %j', (effort, maxTokens, expected) => {
    expect(thinkingFor(effort, maxTokens)).toEqual(expected);
  });

  it.each([
    ['auto' as const, undefined, { type: 'auto' }],
    ['required' as const, undefined, { type: 'any' }],
    ['none' as const, undefined, { type: 'none' }],
    [{ type: 'function' as const, function: { name: 'f' } }, false, { type: 'tool', name: 'f', disable_parallel_tool_use: true }],
    [undefined, false, { type: 'auto', disable_parallel_tool_use: true }],
    [undefined, undefined, undefined],
  ])('tool_choice %j with parallel_tool_calls %s → %j', (choice, parallel, expected) => {
    const req: OpenAIRequest = { ...base, tools: [{ type: 'function', function: { name: 'f' } }] };
    if (choice !== undefined) req.tool_choice = choice;
    if (parallel !== undefined) req.parallel_tool_calls = parallel;
    expect(openAIRequestToAnthropic(req).tool_choice).toEqual(expected);
  });

  it('drops thinking when the client forces a tool (Anthropic refuses the pair), keeping temperature', () => {
    const out = openAIRequestToAnthropic({ ...base, max_tokens: 20_000, temperature: 0.3, reasoning_effort: 'high', tools: [{ type: 'function', function: { name: 'f' } }], tool_choice: 'required' });
    expect(out.thinking).toBeUndefined();
    expect(out.tool_choice).toEqual({ type: 'any' });
    expect(out.temperature).toBe(0.3);
  });

  it('fills max_tokens, which Anthropic requires, from the option', () => {
    expect(openAIRequestToAnthropic(base, { defaultMaxTokens: 1000, model: 'claude-routed' })).toEqual({
      model: 'claude-routed',
      messages: [{ role: 'user', content: 'hi' }],
      max_tokens: 1000,
    });
  });

  it('skips an assistant turn with nothing in it instead of sending an empty one', () => {
    const out = openAIRequestToAnthropic({ ...base, messages: [{ role: 'user', content: 'a' }, { role: 'assistant', content: '' }, { role: 'user', content: 'b' }] });
    expect(out.messages).toEqual([{ role: 'user', content: [{ type: 'text', text: 'a' }, { type: 'text', text: 'b' }] }]);
  });
});
