import { describe, expect, it } from 'vitest';
import {
  anthropicError,
  anthropicErrorToOpenAI,
  anthropicErrorType,
  openAIError,
  openAIErrorToAnthropic,
  statusForAnthropicErrorType,
  toAnthropicError,
  toOpenAIError,
} from '../../../../main/engines/translate/index.js';
import { expectGoldenJson, goldenCases } from '../../../fixtures/translate/golden.js';

describe('error mappers (golden: any upstream error → both client formats)', () => {
  for (const c of goldenCases('errors', 'json')) {
    it(c.name, () => {
      const { status, body } = JSON.parse(c.input) as { status: number; body: string };
      expectGoldenJson({ status, anthropic: toAnthropicError(status, body), openai: toOpenAIError(status, body) }, c.expectedPath);
    });
  }
});

describe('error mappers (rows)', () => {
  it.each([
    [400, 'invalid_request_error'],
    [401, 'authentication_error'],
    [403, 'permission_error'],
    [404, 'not_found_error'],
    [413, 'request_too_large'],
    [429, 'rate_limit_error'],
    [500, 'api_error'],
    [529, 'overloaded_error'],
    [422, 'invalid_request_error'],
  ])('Anthropic type for %d is %s, and back', (status, type) => {
    expect(anthropicErrorType(status)).toBe(type);
    if (status !== 422) expect(statusForAnthropicErrorType(type)).toBe(status);
  });

  it.each([
    [401, 'authentication_error', 'invalid_api_key'],
    [403, 'permission_error', 'insufficient_quota'],
    [404, 'invalid_request_error', 'model_not_found'],
    [429, 'rate_limit_error', 'rate_limit_exceeded'],
    [500, 'server_error', 'internal_server_error'],
    [400, 'invalid_request_error', null],
  ])('OpenAI body for %d has type %s and code %s', (status, type, code) => {
    expect(openAIError(status, 'm')).toEqual({ error: { message: 'm', type, param: null, code } });
  });

  it('converts structured bodies both ways, keeping the message', () => {
    expect(anthropicErrorToOpenAI(404, anthropicError(404, 'model: nope'))).toEqual({
      error: { message: 'model: nope', type: 'invalid_request_error', param: null, code: 'model_not_found' },
    });
    expect(openAIErrorToAnthropic(429, openAIError(429, 'slow down'))).toEqual({ type: 'error', error: { type: 'rate_limit_error', message: 'slow down' } });
  });
});
