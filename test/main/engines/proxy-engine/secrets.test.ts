import { describe, expect, it } from 'vitest';
import { secretEquals } from '../../../../main/engines/proxy-engine/secrets.js';

describe('secretEquals', () => {
  it('accepts only the exact secret, whatever the lengths', () => {
    const secret = 'sk-proxy-secret-0123456789';
    expect(secretEquals(secret, secret)).toBe(true);
    expect(secretEquals(`${secret} `, secret)).toBe(false);
    expect(secretEquals(secret.slice(0, -1), secret)).toBe(false);
    expect(secretEquals('', secret)).toBe(false);
    expect(secretEquals(secret, 'another-secret')).toBe(false);
  });

  it('tells apart a secret that repeats inside a longer or shorter one, and other scripts', () => {
    expect(secretEquals('abcabc', 'abc')).toBe(false);
    expect(secretEquals('abc', 'abcabc')).toBe(false);
    expect(secretEquals('ключ-é’😀', 'ключ-é’😀')).toBe(true);
    expect(secretEquals('ключ-é’😁', 'ключ-é’😀')).toBe(false);
    expect(secretEquals('', '')).toBe(true);
  });

  it('stays exact when many different secrets are compared', () => {
    for (let i = 0; i < 50; i++) {
      expect(secretEquals(`key-${i}`, `key-${i}`)).toBe(true);
      expect(secretEquals(`key-${i}`, `key-${i + 1}`)).toBe(false);
    }
  });
});
