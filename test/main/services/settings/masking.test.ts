import { describe, expect, it } from 'vitest';
import { isSensitiveKey, MASK, maskEnv, unmaskEnv } from '../../../../main/services/settings/masking.js';

describe('isSensitiveKey (decisions §2)', () => {
  const sensitive = [
    'TOKEN', 'SECRET', 'PASSWORD', 'API_KEY', 'AUTH_TOKEN', 'token', 'Api_Key',
    'PROVIDER_AUTH_TOKEN', 'GITHUB_TOKEN', 'OPENAI_API_KEY', 'X_KEY', 'CLIENT_SECRET', 'DB_PASSWORD',
    'GCP_CREDENTIAL', 'GCP_CREDENTIALS', 'SSH_PRIVATE_KEY', 'a_token',
  ];
  const plain = [
    'PROVIDER_BASE_URL', 'PROVIDER_MODEL', 'KEY', 'TOKENS', 'MAX_TOKENS', 'TOKEN_URL', 'KEYCHAIN', 'SECRETS',
    'PASSWORD_HINT', 'CREDENTIAL', 'MY_KEYS', 'APIKEY', '_', '',
  ];
  it.each(sensitive)('%s is sensitive', (key) => expect(isSensitiveKey(key)).toBe(true));
  it.each(plain)('%s is not', (key) => expect(isSensitiveKey(key)).toBe(false));
});

describe('maskEnv / unmaskEnv', () => {
  it('masks sensitive values of any type and keeps the others and the key order', () => {
    expect(Object.entries(maskEnv({ A: '1', B_TOKEN: 'x', C_KEY: 5, D: null }))).toEqual([
      ['A', '1'],
      ['B_TOKEN', MASK],
      ['C_KEY', MASK],
      ['D', null],
    ]);
  });

  it('restores masked secrets from the stored env and drops a mask with nothing behind it', () => {
    const stored = { A_TOKEN: 'real', B_KEY: 7 };
    expect(unmaskEnv({ A_TOKEN: MASK, B_KEY: MASK, C_SECRET: MASK, D: MASK, E_TOKEN: 'new' }, stored)).toEqual({
      A_TOKEN: 'real',
      D: MASK,
      E_TOKEN: 'new',
    });
    expect(unmaskEnv({ A_TOKEN: MASK }, undefined)).toEqual({});
  });

  it('keeps a key named __proto__ as plain data', () => {
    const incoming = JSON.parse('{"__proto__": "x", "A_TOKEN": "********"}') as Record<string, string>;
    const out = unmaskEnv(incoming, JSON.parse('{"A_TOKEN": "kept"}'));
    expect(Object.getPrototypeOf(out)).toBe(Object.prototype);
    expect(JSON.stringify(out)).toBe('{"__proto__":"x","A_TOKEN":"kept"}');
  });
});
