import { describe, expect, it } from 'vitest';
import { envFromRows, rowsFromEnv } from '../../../../../renderer/src/pages/profiles/env-rows.js';

describe('rowsFromEnv', () => {
  it('keeps string values as they are and round-trips through envFromRows', () => {
    const env = { PROVIDER_BASE_URL: 'http://127.0.0.1:8317', EMPTY: '' };
    expect(envFromRows(rowsFromEnv(env))).toEqual(env);
  });

  it('shows values of other types as text, so the editor and a save see strings', () => {
    const rows = rowsFromEnv({ TIMEOUT: 30, DEBUG: true, NOTHING: null, LIST: ['a', 1] });
    expect(rows.map((r) => [r.key, r.value])).toEqual([
      ['TIMEOUT', '30'],
      ['DEBUG', 'true'],
      ['NOTHING', 'null'],
      ['LIST', '["a",1]'],
    ]);
    expect(envFromRows(rows)).toEqual({ TIMEOUT: '30', DEBUG: 'true', NOTHING: 'null', LIST: '["a",1]' });
  });
});
