import { describe, expect, it } from 'vitest';
import { envFromRows, PLACEHOLDERS, rowsFromEnv, validateValues } from '../../../../../renderer/src/pages/profiles/env-rows.js';

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

describe('validateValues (base URLs checked while typing, issue 28.5)', () => {
  const rowsOf = (env: Record<string, string>) => rowsFromEnv(env);
  it.each([
    ['not a url', 'Must be an http(s) URL such as https://api.example.com'],
    ['api.example.com', 'Must be an http(s) URL such as https://api.example.com'],
    ['ftp://api.example.com', 'Must be an http(s) URL such as https://api.example.com (start with http:// or https://)'],
    ['localhost:8317', 'Must be an http(s) URL such as https://api.example.com (start with http:// or https://)'],
  ])('%j is refused with a sentence', (value, problem) => {
    const rows = rowsOf({ PROVIDER_BASE_URL: value, ANTHROPIC_BASE_URL: value, OTHER_URL: value });
    const problems = validateValues(rows);
    expect([...problems.values()]).toEqual([problem, problem]);
    expect(problems.has(rows[2]!.id)).toBe(false);
  });

  it.each([['https://api.example.com/v1'], ['http://127.0.0.1:8317'], [''], ['  '], ['********']])('%j is fine', (value) => {
    expect(validateValues(rowsOf({ PROVIDER_BASE_URL: value })).size).toBe(0);
  });

  it('every required key of a new profile has a placeholder', () => {
    for (const key of ['PROVIDER_BASE_URL', 'PROVIDER_AUTH_TOKEN', 'PROVIDER_MODEL']) expect(PLACEHOLDERS[key], key).toBeTruthy();
    expect(PLACEHOLDERS.PROVIDER_BASE_URL).toBe('https://api.example.com');
  });
});
