import { describe, expect, it } from 'vitest';
import { agentEnv, launchEnv } from '../../../../main/services/profiles/launch-env.js';

describe('launchEnv (decisions §2: PROVIDER_<X> also as ANTHROPIC_<X>)', () => {
  const rows: Array<[string, unknown, Record<string, string>]> = [
    ['empty env', {}, {}],
    ['no env object', undefined, {}],
    ['env that is an array', ['x'], {}],
    [
      'each PROVIDER_ key mapped, the original kept',
      { PROVIDER_BASE_URL: 'https://api.z.ai', PROVIDER_AUTH_TOKEN: 't', PROVIDER_MODEL: 'glm' },
      {
        PROVIDER_BASE_URL: 'https://api.z.ai',
        PROVIDER_AUTH_TOKEN: 't',
        PROVIDER_MODEL: 'glm',
        ANTHROPIC_BASE_URL: 'https://api.z.ai',
        ANTHROPIC_AUTH_TOKEN: 't',
        ANTHROPIC_MODEL: 'glm',
      },
    ],
    ['an ANTHROPIC_ key written in the profile wins', { PROVIDER_MODEL: 'a', ANTHROPIC_MODEL: 'b' }, { PROVIDER_MODEL: 'a', ANTHROPIC_MODEL: 'b' }],
    ['tier keys map too', { PROVIDER_DEFAULT_OPUS_MODEL: 'o' }, { PROVIDER_DEFAULT_OPUS_MODEL: 'o', ANTHROPIC_DEFAULT_OPUS_MODEL: 'o' }],
    ['nothing else is renamed', { OPENAI_API_KEY: 'k', provider_model: 'lower', XPROVIDER_A: '1' }, { OPENAI_API_KEY: 'k', provider_model: 'lower', XPROVIDER_A: '1' }],
    ['a bare PROVIDER_ key is not mapped to ANTHROPIC_', { PROVIDER_: 'x' }, { PROVIDER_: 'x' }],
    ['numbers and booleans written out', { API_TIMEOUT_MS: 600000, DISABLE_X: true }, { API_TIMEOUT_MS: '600000', DISABLE_X: 'true' }],
    ['null, objects, arrays and NaN left out', { A: null, B: { c: 1 }, C: [1], D: Number.NaN }, {}],
    ['empty strings kept (they clear a variable)', { PROVIDER_MODEL: '' }, { PROVIDER_MODEL: '', ANTHROPIC_MODEL: '' }],
    ['values with quotes, $ and newlines unchanged', { PROVIDER_MODEL: `it's "$HOME"\nx` }, { PROVIDER_MODEL: `it's "$HOME"\nx`, ANTHROPIC_MODEL: `it's "$HOME"\nx` }],
  ];
  it.each(rows)('%s', (_name, env, expected) => {
    expect(launchEnv(env)).toEqual(expected);
  });

  it('keeps a key named __proto__ as a plain key', () => {
    const env = JSON.parse('{"__proto__": "x", "PROVIDER_MODEL": "m"}');
    const out = launchEnv(env);
    expect(Object.keys(out).sort()).toEqual(['ANTHROPIC_MODEL', 'PROVIDER_MODEL', '__proto__']);
  });
});

describe('agentEnv', () => {
  it("puts the profile's env on top of the caller's, keeping everything else", () => {
    const env = agentEnv({ PROVIDER_MODEL: 'glm', HOME: '/profile' }, { HOME: '/me', PATH: '/bin', ANTHROPIC_MODEL: 'caller' });
    expect(env).toEqual({ HOME: '/profile', PATH: '/bin', PROVIDER_MODEL: 'glm', ANTHROPIC_MODEL: 'glm' });
  });
});
