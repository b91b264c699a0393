import { describe, expect, it } from 'vitest';
import { isOrigin, overrideOrigin, parseOriginOverrides } from '../../../main/infra/origin-overrides.js';

describe('overrideOrigin', () => {
  const overrides = { 'https://chatgpt.com': 'http://127.0.0.1:5001', 'https://Auth.OpenAI.com/': 'http://127.0.0.1:5002' };

  it.each([
    ['https://chatgpt.com/backend-api/codex/responses', 'http://127.0.0.1:5001/backend-api/codex/responses'],
    ['https://auth.openai.com/oauth/token?x=1', 'http://127.0.0.1:5002/oauth/token?x=1'],
    ['https://chatgpt.com:443/a', 'http://127.0.0.1:5001/a'],
    ['https://api.github.com/user', 'https://api.github.com/user'],
    ['http://chatgpt.com/a', 'http://chatgpt.com/a'],
    ['not a url', 'not a url'],
  ])('%s → %s', (url, expected) => {
    expect(overrideOrigin(url, overrides)).toBe(expected);
  });
});

describe('parseOriginOverrides', () => {
  it('keeps origin pairs and drops everything else', () => {
    expect(parseOriginOverrides(JSON.stringify({ 'https://a.example': 'http://127.0.0.1:1', 'https://b.example/path': 'http://127.0.0.1:2', 'https://c.example': 5 }))).toEqual({ 'https://a.example': 'http://127.0.0.1:1' });
    expect(parseOriginOverrides('[1]')).toEqual({});
    expect(parseOriginOverrides('{broken')).toEqual({});
    expect(parseOriginOverrides(undefined)).toEqual({});
  });

  it('an origin is scheme, host and port only', () => {
    expect(isOrigin('https://chatgpt.com')).toBe(true);
    expect(isOrigin('http://127.0.0.1:5001')).toBe(true);
    expect(isOrigin('https://chatgpt.com/')).toBe(true);
    expect(isOrigin('https://ChatGPT.com')).toBe(true);
    expect(isOrigin('https://chatgpt.com/x')).toBe(false);
    expect(isOrigin('ftp://x.example')).toBe(false);
    expect(isOrigin('chatgpt.com')).toBe(false);
  });
});
