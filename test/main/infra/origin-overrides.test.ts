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

describe('overrideOrigin: only the exact origin (sign-in hosts)', () => {
  const overrides = { 'https://auth.openai.com': 'http://127.0.0.1:5001', 'https://api.github.com/': 'http://127.0.0.1:5002/ignored-path', 'not a url': 'http://x' };
  it.each([
    ['https://auth.openai.com/oauth/token', 'http://127.0.0.1:5001/oauth/token'],
    ['https://auth.openai.com/oauth/authorize?state=a&code_challenge=b', 'http://127.0.0.1:5001/oauth/authorize?state=a&code_challenge=b'],
    ['https://api.github.com/copilot_internal/v2/token', 'http://127.0.0.1:5002/copilot_internal/v2/token'],
    // Only the exact origin: another host, scheme or port is left alone.
    ['https://auth.openai.com.evil.test/oauth/token', 'https://auth.openai.com.evil.test/oauth/token'],
    ['http://auth.openai.com/oauth/token', 'http://auth.openai.com/oauth/token'],
    ['https://auth.openai.com:8443/x', 'https://auth.openai.com:8443/x'],
    ['https://github.com/login/device/code', 'https://github.com/login/device/code'],
    ['no url at all', 'no url at all'],
  ])('%s → %s', (from, to) => {
    expect(overrideOrigin(from, overrides)).toBe(to);
  });
});

describe('overrideOrigin: keys as written by hand (provider hosts)', () => {
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
