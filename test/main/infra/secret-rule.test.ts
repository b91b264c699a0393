import { describe, expect, it } from 'vitest';
import {
  isSensitiveKey,
  isSensitiveValue,
  keyWords,
  MASK,
  maskForLog,
  maskHeaderValue,
  maskSecrets,
  unmaskSecrets,
} from '../../../main/infra/secret-rule.js';

describe('keyWords: split on _, -, . and lower→upper changes', () => {
  it.each([
    ['x-api_key', ['x', 'api', 'key']],
    ['anthropicApiKey', ['anthropic', 'Api', 'Key']],
    ['PROVIDER_BASE_URL', ['PROVIDER', 'BASE', 'URL']],
    ['a.b-c_d', ['a', 'b', 'c', 'd']],
    ['__', []],
    // A digit before a capital splits too (docs/settings.md): these keys are masked, not shown.
    ['S3Key', ['S3', 'Key']],
    ['OAUTH2Token', ['OAUTH2', 'Token']],
    ['GPT4O_MODEL', ['GPT4', 'O', 'MODEL']],
  ])('%s → %j', (key, words) => expect(keyWords(key)).toEqual(words));
});

describe('isSensitiveKey (decisions §2, revised)', () => {
  // Every word of issue 17, then one key per word of the list, in several spellings.
  const sensitive = [
    'ANTHROPIC_APIKEY', 'GITHUB_PAT', 'apikey', 'PASSWD', 'ACCESS_TOKENS', 'AUTHORIZATION',
    'x-access-key', 'x-api_key', 'x-auth', 'x-credential',
    'TOKEN', 'SECRETS', 'DB_PASSWORD', 'MYSQL_PWD', 'SMTP_PASS', 'KEY', 'CREDENTIALS', 'COOKIE',
    'SESSION', 'SSH_PRIVATE', 'REQUEST_SIGNATURE', 'PROVIDER_AUTH_TOKEN', 'anthropicApiKey', 'apiKeyHelper',
    'x.token', 'Api-Key', 'PASSWORD_HINT', 'session.id',
    // A count word does not clear a key with another secret word than TOKEN/TOKENS.
    'MAX_AUTH_TOKENS', 'SESSION_TOKEN_LIMIT', 'API_KEY_COUNT', 'MAX_SECRET', 'TOKEN_MAXIMUM',
  ];
  // The last-word exception, and words that merely contain a secret word.
  const plain = [
    'PROVIDER_BASE_URL', 'ANTHROPIC_MODEL', 'AUTH_PORT', 'TOKEN_URL', 'AUTH_HOST', 'SECRET_PATH', 'KEY_URI',
    'PROVIDER_MODEL', 'apiKeyPath', 'KEYCHAIN', 'MY_KEYS', 'PASSPORT', 'TOKENIZER', 'SESSIONS_DIR_X', 'OLDPWD',
    'anthropic-beta', 'content-type', 'host', '', '_',
    // Counts of tokens (decisions §2, revised after issue 27): numbers, not secrets.
    'TOKEN_LIMIT', 'MAX_TOKENS', 'CLAUDE_CODE_MAX_OUTPUT_TOKENS', 'MAX_THINKING_TOKENS', 'maxTokens',
    'MIN_TOKENS', 'TOKEN_BUDGET', 'TOKEN_COUNT', 'thinking.tokens',
  ];
  it.each(sensitive)('%s is sensitive', (key) => expect(isSensitiveKey(key)).toBe(true));
  it.each(plain)('%s is not', (key) => expect(isSensitiveKey(key)).toBe(false));
});

describe('isSensitiveValue: a URL with a password in its userinfo', () => {
  it.each([
    ['postgres://u:pass@host', true],
    ['postgres://u:pass@host:5432/db?x=1', true],
    ['https://user:p%40ss@example.com/', true],
    [' redis://:secret@127.0.0.1:6379', true],
    ['https://user@example.com/', false],
    ['https://user:@example.com/', false],
    ['https://example.com:8080/a:b@c', false],
    ['https://example.com/?u=a:b@c', false],
    ['not a url u:p@h', false],
    [42, false],
  ])('%s → %s', (value, expected) => expect(isSensitiveValue(value)).toBe(expected));
});

describe('maskSecrets / unmaskSecrets', () => {
  const stored = {
    env: { ANTHROPIC_APIKEY: 'sk-1', GITHUB_PAT: 'ghp', PROVIDER_BASE_URL: 'https://x', DB: 'postgres://u:pass@host', N_KEY: 7 },
    apiKeyHelper: '/bin/key',
    nested: { deep: [{ x_auth: 'abc', plain: 'ok' }, 'mysql://a:b@h'] },
    presets: [{ name: 'p', default: 'm' }],
  };

  it('masks by key name at any depth and by value anywhere, whatever the type', () => {
    expect(maskSecrets(stored)).toEqual({
      env: { ANTHROPIC_APIKEY: MASK, GITHUB_PAT: MASK, PROVIDER_BASE_URL: 'https://x', DB: MASK, N_KEY: MASK },
      apiKeyHelper: MASK,
      nested: { deep: [{ x_auth: MASK, plain: 'ok' }, MASK] },
      presets: [{ name: 'p', default: 'm' }],
    });
  });

  it('saving the masked form back keeps every stored secret', () => {
    expect(unmaskSecrets(maskSecrets(stored), stored)).toEqual(stored);
  });

  it('drops a sensitive key sent as the mask with nothing stored, keeps a mask under a plain key', () => {
    expect(unmaskSecrets({ env: { A_TOKEN: MASK, PLAIN: MASK, B_TOKEN: 'new' }, url: MASK }, { url: 'https://x' })).toEqual({
      env: { PLAIN: MASK, B_TOKEN: 'new' },
      url: MASK,
    });
  });

  it('keeps a key named __proto__ as plain data', () => {
    const out = unmaskSecrets(JSON.parse('{"__proto__": "x", "A_TOKEN": "********"}'), JSON.parse('{"A_TOKEN": "kept"}'));
    expect(Object.getPrototypeOf(out)).toBe(Object.prototype);
    expect(JSON.stringify(out)).toBe('{"__proto__":"x","A_TOKEN":"kept"}');
  });
});

describe('log masking: first/last four only from 24 characters; Authorization keeps its scheme', () => {
  const long = 'abcdefghijklmnopqrstuvwx'; // 24
  it.each([
    ['authorization', `Bearer ${long}`, 'Bearer abcd...uvwx'],
    ['authorization', 'Bearer sk-abcdefghijklmnop', `Bearer ${MASK}`],
    ['proxy-authorization', `Basic ${long}`, 'Basic abcd...uvwx'],
    ['x-access-key', long, 'abcd...uvwx'],
    ['x-api_key', 'short', MASK],
    ['x-auth', 'sk-ant-api03-abcdefgh', MASK],
    ['x-credential', long.slice(1), MASK],
    ['cookie', `session=${long}`, 'sess...uvwx'],
    ['x-upstream', 'postgres://u:pass@host', MASK],
    ['anthropic-beta', 'interleaved-thinking-2025-05-14', 'interleaved-thinking-2025-05-14'],
    ['x-auth-host', 'example.com', 'example.com'],
  ])('%s: %s → %s', (name, value, expected) => expect(maskHeaderValue(name, value)).toBe(expected));

  it('maskForLog', () => {
    expect(maskForLog('x'.repeat(23))).toBe(MASK);
    expect(maskForLog(long)).toBe('abcd...uvwx');
  });
});
