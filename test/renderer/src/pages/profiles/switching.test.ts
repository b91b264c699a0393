import { describe, expect, it } from 'vitest';
import { envChanges, isModelKey, otherKeys } from '../../../../../renderer/src/pages/profiles/switching.js';

describe('isModelKey', () => {
  it.each([
    ['PROVIDER_MODEL', true],
    ['ANTHROPIC_MODEL', true],
    ['PROVIDER_DEFAULT_OPUS_MODEL', true],
    ['PROVIDER_DEFAULT_SONNET_MODEL', true],
    ['ANTHROPIC_DEFAULT_HAIKU_MODEL', true],
    ['ANTHROPIC_SMALL_FAST_MODEL', true],
    [' PROVIDER_MODEL ', true],
    ['PROVIDER_BASE_URL', false],
    ['PROVIDER_MODEL_X', false],
    ['MY_MODEL', false],
    ['provider_model', false],
  ])('%s → %s', (key, expected) => {
    expect(isModelKey(key)).toBe(expected);
  });
});

describe('envChanges', () => {
  it('lists changed, added and removed keys in name order and nothing else', () => {
    const before = { PROVIDER_MODEL: 'a', PROVIDER_DEFAULT_OPUS_MODEL: 'o', KEEP: 'same', PROVIDER_AUTH_TOKEN: '********' };
    const after = { PROVIDER_MODEL: 'b', KEEP: 'same', PROVIDER_AUTH_TOKEN: '********', PROVIDER_DEFAULT_HAIKU_MODEL: 'h' };
    expect(envChanges(before, after)).toEqual([
      { key: 'PROVIDER_DEFAULT_HAIKU_MODEL', after: 'h' },
      { key: 'PROVIDER_DEFAULT_OPUS_MODEL', before: 'o' },
      { key: 'PROVIDER_MODEL', before: 'a', after: 'b' },
    ]);
  });

  it('is empty when nothing changed, and compares non-string values as the editor shows them', () => {
    expect(envChanges({ A: 'x' }, { A: 'x' })).toEqual([]);
    expect(envChanges({ N: 30 }, { N: '30' })).toEqual([]);
    expect(envChanges({ N: 30 }, { N: 31 })).toEqual([{ key: 'N', before: '30', after: '31' }]);
  });

  it('tells an empty value from a missing key', () => {
    expect(envChanges({ A: '' }, {})).toEqual([{ key: 'A', before: '' }]);
  });
});

describe('otherKeys', () => {
  it('keeps every key but env and presets', () => {
    expect(otherKeys({ env: {}, presets: [], permissions: { allow: ['Bash'] }, model: 'x' })).toEqual({ permissions: { allow: ['Bash'] }, model: 'x' });
  });

  it('is null when there is nothing else', () => {
    expect(otherKeys({ env: { A: '1' }, presets: [] })).toBeNull();
    expect(otherKeys({})).toBeNull();
  });
});
