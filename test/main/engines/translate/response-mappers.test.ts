import { describe, expect, it } from 'vitest';
import {
  anthropicResponseToOpenAI,
  anthropicStopReason,
  openAIFinishReason,
  openAIResponseToAnthropic,
  type AnthropicResponse,
  type OpenAIResponse,
} from '../../../../main/engines/translate/index.js';
import { expectGoldenJson, goldenCases } from '../../../fixtures/translate/golden.js';

const created = 1767225600;

describe('openAIResponseToAnthropic (golden)', () => {
  for (const c of goldenCases('response-openai-to-anthropic', 'json')) {
    it(c.name, () => {
      expectGoldenJson(openAIResponseToAnthropic(JSON.parse(c.input) as OpenAIResponse, c.options), c.expectedPath);
    });
  }
});

describe('anthropicResponseToOpenAI (golden)', () => {
  for (const c of goldenCases('response-anthropic-to-openai', 'json')) {
    it(c.name, () => {
      expectGoldenJson(anthropicResponseToOpenAI(JSON.parse(c.input) as AnthropicResponse, { created, ...c.options }), c.expectedPath);
    });
  }
});

describe('stop reasons', () => {
  it.each([
    ['stop', false, 'end_turn'],
    ['length', false, 'max_tokens'],
    ['tool_calls', true, 'tool_use'],
    ['function_call', true, 'tool_use'],
    ['content_filter', false, 'end_turn'],
    ['stop', true, 'tool_use'],
    ['length', true, 'max_tokens'],
    [null, false, 'end_turn'],
  ])('finish_reason %s (tool calls: %s) → %s', (finish, tools, expected) => {
    expect(anthropicStopReason(finish, tools)).toBe(expected);
  });

  it.each([
    ['end_turn', 'stop'],
    ['stop_sequence', 'stop'],
    ['pause_turn', 'stop'],
    ['max_tokens', 'length'],
    ['model_context_window_exceeded', 'length'],
    ['tool_use', 'tool_calls'],
    ['refusal', 'content_filter'],
    [null, 'stop'],
  ])('stop_reason %s → %s', (stop, expected) => {
    expect(openAIFinishReason(stop)).toBe(expected);
  });

  it('answers with the client model name when given', () => {
    const res = openAIResponseToAnthropic(
      { id: 'chatcmpl-1', object: 'chat.completion', created, model: 'gpt-4o-2024-08-06', choices: [{ index: 0, message: { role: 'assistant', content: 'x' }, finish_reason: 'stop' }] },
      { model: 'claude-sonnet-4-5' },
    );
    expect(res.model).toBe('claude-sonnet-4-5');
    expect(res.id).toBe('msg_1');
  });
});
