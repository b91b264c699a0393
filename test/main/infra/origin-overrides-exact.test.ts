import { describe, expect, it } from 'vitest';
import { overrideOrigin } from '../../../main/infra/origin-overrides.js';

describe('overrideOrigin (decisions §4.1: exact origin → origin)', () => {
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
