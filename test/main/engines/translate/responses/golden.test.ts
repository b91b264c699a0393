import { describe, expect, it } from 'vitest';
import { anthropicRequestToResponses } from '../../../../../main/engines/translate/anthropic-responses/request.js';
import { responsesToAnthropic } from '../../../../../main/engines/translate/anthropic-responses/response.js';
import type { ResponsesResponse } from '../../../../../main/engines/translate/anthropic-responses/responses-types.js';
import { createResponsesToAnthropicSse } from '../../../../../main/engines/translate/anthropic-responses/sse.js';
import { ToolNames } from '../../../../../main/engines/translate/anthropic-responses/tool-names.js';
import { createResponsesToOpenAISse } from '../../../../../main/engines/translate/openai-responses/index.js';
import type { SseTranslator } from '../../../../../main/engines/translate/sse.js';
import type { AnthropicRequest } from '../../../../../main/engines/translate/index.js';
import { expectGoldenJson, expectGoldenText, goldenCases } from '../../../../fixtures/translate/golden.js';

const created = 1767225600;

/** Options files name the client's tools as a list; the mappers take the name map built from it. */
function withToolNames(options: Record<string, unknown>): Record<string, unknown> {
  const names = options.toolNames;
  return Array.isArray(names) ? { ...options, toolNames: new ToolNames(names as string[]) } : options;
}

/** Feeds the upstream text in pieces of `size` characters, as a socket would deliver it. */
function run(translator: SseTranslator, input: string, size = input.length): string {
  let out = '';
  for (let i = 0; i < input.length; i += size) out += translator.feed(input.slice(i, i + size));
  return out + translator.end();
}

describe('Anthropic request → Responses request (golden)', () => {
  for (const c of goldenCases('request-anthropic-to-responses', 'json')) {
    it(c.name, () => {
      expectGoldenJson(anthropicRequestToResponses(JSON.parse(c.input) as AnthropicRequest, c.options).body, c.expectedPath);
    });
  }
});

describe('Responses answer → Anthropic message (golden)', () => {
  for (const c of goldenCases('response-responses-to-anthropic', 'json')) {
    it(c.name, () => {
      expectGoldenJson(responsesToAnthropic(JSON.parse(c.input) as ResponsesResponse, withToolNames(c.options)), c.expectedPath);
    });
  }
});

describe('Responses SSE → Anthropic SSE (golden)', () => {
  for (const c of goldenCases('stream-responses-to-anthropic', 'sse')) {
    it(c.name, () => {
      const options = withToolNames(c.options);
      const whole = run(createResponsesToAnthropicSse(options), c.input);
      expectGoldenText(whole, c.expectedPath);
      for (const size of [1, 7, 64]) expect(run(createResponsesToAnthropicSse(options), c.input, size)).toBe(whole);
    });
  }
});

describe('Responses SSE → OpenAI chat SSE (golden)', () => {
  for (const c of goldenCases('stream-responses-to-openai', 'sse')) {
    it(c.name, () => {
      const options = { created, ...withToolNames(c.options) };
      const whole = run(createResponsesToOpenAISse(options), c.input);
      expectGoldenText(whole, c.expectedPath);
      for (const size of [1, 7, 64]) expect(run(createResponsesToOpenAISse(options), c.input, size)).toBe(whole);
    });
  }
});
