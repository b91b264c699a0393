import { describe, expect, it } from 'vitest';
import { anthropicRequestToOpenAI, reasoningEffortFor, type AnthropicRequest } from '../../../../main/engines/translate/index.js';
import { expectGoldenJson, goldenCases } from '../../../fixtures/translate/golden.js';

describe('anthropicRequestToOpenAI (golden)', () => {
  for (const c of goldenCases('request-anthropic-to-openai', 'json')) {
    it(c.name, () => {
      expectGoldenJson(anthropicRequestToOpenAI(JSON.parse(c.input) as AnthropicRequest, c.options), c.expectedPath);
    });
  }
});

describe('anthropicRequestToOpenAI (rows)', () => {
  const base: AnthropicRequest = { model: 'claude-x', max_tokens: 100, messages: [{ role: 'user', content: 'hi' }] };

  it.each([
    [undefined, undefined],
    [{ type: 'disabled' as const }, undefined],
    [{ type: 'adaptive' as const }, undefined],
    [{ type: 'enabled' as const, budget_tokens: 1024 }, 'low'],
    [{ type: 'enabled' as const, budget_tokens: 2048 }, 'low'],
    [{ type: 'enabled' as const, budget_tokens: 4000 }, 'medium'],
    [{ type: 'enabled' as const, budget_tokens: 16_000 }, 'medium'],
    [{ type: 'enabled' as const, budget_tokens: 31_999 }, 'high'],
  ])('thinking %j → reasoning_effort %s', (thinking, effort) => {
    expect(reasoningEffortFor(thinking)).toBe(effort);
  });

  it.each([
    [{ type: 'adaptive' as const }, 'low' as const, 'low'],
    [{ type: 'adaptive' as const }, 'medium' as const, 'medium'],
    [{ type: 'adaptive' as const }, 'high' as const, 'high'],
    [{ type: 'adaptive' as const }, 'max' as const, 'high'],
    [{ type: 'adaptive' as const }, undefined, undefined],
    [{ type: 'enabled' as const, budget_tokens: 1024 }, 'max' as const, 'low'],
    [{ type: 'disabled' as const }, 'high' as const, undefined],
  ])('thinking %j with output_config.effort %s → reasoning_effort %s', (thinking, effort, expected) => {
    expect(reasoningEffortFor(thinking, effort)).toBe(expected);
    expect(anthropicRequestToOpenAI({ ...base, thinking, ...(effort ? { output_config: { effort } } : {}) }).reasoning_effort).toBe(expected);
  });

  it('keeps mid-conversation system messages as system messages in place', () => {
    const out = anthropicRequestToOpenAI({
      ...base,
      messages: [
        { role: 'user', content: 'a' },
        { role: 'system', content: 'reminder' },
        { role: 'user', content: 'b' },
      ],
    });
    expect(out.messages).toEqual([
      { role: 'user', content: 'a' },
      { role: 'system', content: 'reminder' },
      { role: 'user', content: 'b' },
    ]);
  });

  it.each([
    [{ type: 'auto' as const }, 'auto'],
    [{ type: 'any' as const }, 'required'],
    [{ type: 'none' as const }, 'none'],
    [{ type: 'tool' as const, name: 'f' }, { type: 'function', function: { name: 'f' } }],
  ])('tool_choice %j → %j', (choice, expected) => {
    const out = anthropicRequestToOpenAI({ ...base, tools: [{ name: 'f', input_schema: { type: 'object' } }], tool_choice: choice });
    expect(out.tool_choice).toEqual(expected);
  });

  it('leaves tool_choice out when no client tool survives', () => {
    const out = anthropicRequestToOpenAI({ ...base, tools: [{ type: 'web_search_20250305', name: 'web_search' }], tool_choice: { type: 'any' } });
    expect(out.tools).toBeUndefined();
    expect(out.tool_choice).toBeUndefined();
  });

  it('uses the routed model and max_completion_tokens when asked', () => {
    const out = anthropicRequestToOpenAI(base, { model: 'gpt-5', maxTokensField: 'max_completion_tokens' });
    expect(out).toEqual({ model: 'gpt-5', messages: [{ role: 'user', content: 'hi' }], max_completion_tokens: 100 });
  });

  it('keeps an empty system prompt out of the messages', () => {
    expect(anthropicRequestToOpenAI({ ...base, system: [] }).messages).toEqual([{ role: 'user', content: 'hi' }]);
  });
});
