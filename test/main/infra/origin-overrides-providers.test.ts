import { describe, expect, it } from 'vitest';
import { overrideOrigin } from '../../../main/infra/origin-overrides.js';

describe('overrideOrigin', () => {
  const overrides = { 'https://api.groq.com': 'http://127.0.0.1:5001', 'HTTPS://API.X.AI/': 'http://127.0.0.1:5002/ignored-path' };

  it.each([
    ['https://api.groq.com/openai/v1/models', 'http://127.0.0.1:5001/openai/v1/models'],
    ['https://api.groq.com/openai/v1/models?limit=5', 'http://127.0.0.1:5001/openai/v1/models?limit=5'],
    ['https://api.x.ai/v1/chat/completions', 'http://127.0.0.1:5002/v1/chat/completions'],
    // another origin, another scheme or port: unchanged
    ['https://api.openai.com/v1/models', 'https://api.openai.com/v1/models'],
    ['http://api.groq.com/openai/v1/models', 'http://api.groq.com/openai/v1/models'],
    ['https://api.groq.com:8443/x', 'https://api.groq.com:8443/x'],
    ['not a url', 'not a url'],
  ])('%s → %s', (from, to) => {
    expect(overrideOrigin(from, overrides)).toBe(to);
  });

  it('leaves every URL alone without overrides', () => {
    expect(overrideOrigin('https://api.groq.com/x', undefined)).toBe('https://api.groq.com/x');
  });
});
