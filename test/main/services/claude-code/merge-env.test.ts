import { describe, expect, it } from 'vitest';
import { mergeEnv, ownedKeysIntact } from '../../../../main/services/claude-code/merge-env.js';
import { sha256, type AppliedInfo } from '../../../../main/services/claude-code/record.js';

const wrote = (env: Record<string, string>): AppliedInfo => ({
  profile: 'p',
  appliedAt: 0,
  keys: Object.keys(env),
  values: Object.fromEntries(Object.entries(env).map(([k, v]) => [k, sha256(v)])),
  written: { sha256: '', mtime: 0 },
});

describe('mergeEnv: per-key memory of the user values', () => {
  const rows: Array<{ name: string; current: Record<string, unknown>; env: Record<string, string>; owned: Parameters<typeof mergeEnv>[2]; previous: AppliedInfo | null; env2: Record<string, unknown>; owned2: Parameters<typeof mergeEnv>[2] }> = [
    {
      name: 'first apply remembers a set key and an unset one',
      current: { M: 'mine', X: 1 },
      env: { M: 'a', U: 'u' },
      owned: {},
      previous: null,
      env2: { M: 'a', U: 'u', X: 1 },
      owned2: { M: { had: true, value: 'mine' }, U: { had: false } },
    },
    {
      name: 'a key no longer set, still as written: the user value comes back, an unset one goes',
      current: { M: 'a', U: 'u', X: 1 },
      env: {},
      owned: { M: { had: true, value: 'mine' }, U: { had: false } },
      previous: wrote({ M: 'a', U: 'u' }),
      env2: { M: 'mine', X: 1 },
      owned2: {},
    },
    {
      name: 'a key the user changed is theirs: kept, not owned any more',
      current: { M: 'hand' },
      env: {},
      owned: { M: { had: true, value: 'mine' } },
      previous: wrote({ M: 'a' }),
      env2: { M: 'hand' },
      owned2: {},
    },
    {
      name: 'set again over a user change: the change is what comes back later',
      current: { M: 'hand' },
      env: { M: 'b' },
      owned: { M: { had: true, value: 'mine' } },
      previous: wrote({ M: 'a' }),
      env2: { M: 'b' },
      owned2: { M: { had: true, value: 'hand' } },
    },
    {
      name: 'set again, still as written: the first user value stays remembered',
      current: { M: 'a' },
      env: { M: 'b' },
      owned: { M: { had: true, value: 'mine' } },
      previous: wrote({ M: 'a' }),
      env2: { M: 'b' },
      owned2: { M: { had: true, value: 'mine' } },
    },
  ];
  for (const row of rows) {
    it(row.name, () => {
      expect(mergeEnv(row.current, row.env, row.owned, row.previous)).toEqual({ env: row.env2, owned: row.owned2 });
    });
  }

  it('ownedKeysIntact: every written key still holds its value', () => {
    expect(ownedKeysIntact({ M: 'a', X: 'other' }, wrote({ M: 'a' }))).toBe(true);
    expect(ownedKeysIntact({ M: 'hand' }, wrote({ M: 'a' }))).toBe(false);
    expect(ownedKeysIntact({}, wrote({ M: 'a' }))).toBe(false);
  });
});
