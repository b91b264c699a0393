import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { gooseInstant, gooseRow } from '../../../../../main/services/usage/agents/goose.js';
import { hermesRow } from '../../../../../main/services/usage/agents/hermes.js';
import { kilo } from '../../../../../main/services/usage/agents/kilo.js';
import { opencode, opencodeDatabase } from '../../../../../main/services/usage/agents/opencode.js';
import { dirsOf } from '../../../../../main/services/usage/agents/registry.js';

// Rows as the sqlite3 tool hands them over (after the loaders' CASTs); expectations observed with
// ccusage 20.0.24 on the same rows (docs/usage.md, "Every agent").
const utc = (s: string) => Date.parse(s);

describe('goose created_at', () => {
  it.each([
    ['2026-01-02 23:30:00', utc('2026-01-02T23:30:00Z')], // SQLite CURRENT_TIMESTAMP: UTC
    ['2026-01-02T23:30:00', utc('2026-01-02T23:30:00Z')],
    ['2026-01-03T10:00:00Z', utc('2026-01-03T10:00:00Z')],
    ['2026-01-04T10:00:00+09:00', utc('2026-01-04T01:00:00Z')],
    ['2026-01-04T10:00:00.123Z', utc('2026-01-04T10:00:00.123Z')],
    ['2026-01-03', utc('2026-01-03T00:00:00Z')],
    ['1767400000', 1767400000_000], // seconds
    ['1767400000000', 1767400000000], // above 1e12: milliseconds
    [' 1767400000 ', 1767400000_000],
    ['0', NaN],
    ['1767400000.5', NaN], // a fraction: not read (ccusage drops the row)
    ['junk', NaN],
    ['', NaN],
    ['2026-02-30 10:00:00', NaN],
  ])('%j → %d', (text, ms) => {
    expect(gooseInstant(text)).toBe(ms);
  });
});

describe('goose row', () => {
  const row = (o: Record<string, unknown>) => ({ id: 's', model_config: '{"model_name":"gpt-5"}', created_at: '2026-01-02 10:00:00', ...o });
  const counts = (o: Record<string, unknown>) => {
    const r = gooseRow(row(o), '/g/sessions.db');
    if (r === null || r === 'malformed') return r;
    return r.records.map((x) => [x.inputTokens, x.outputTokens, x.extraTokens, x.cacheReadTokens, x.cacheWrite5mTokens, x.model]);
  };
  it.each([
    ['accumulated counts first', { acc_input: 100, acc_output: 50, acc_total: 180, input: 1, output: 1, total: 2 }, [[100, 50, 30, 0, 0, 'gpt-5']]],
    ['accumulated 0: the plain counts', { acc_input: 0, acc_output: 0, acc_total: 0, input: 600, output: 200, total: 1000 }, [[600, 200, 200, 0, 0, 'gpt-5']]],
    ['no output: the rest of the total stays extra', { input: 300, output: 0, total: 500 }, [[300, 0, 200, 0, 0, 'gpt-5']]],
    ['a total below the parts adds nothing', { input: 100, output: 10, total: 50 }, [[100, 10, 0, 0, 0, 'gpt-5']]],
    ['no total: input + output', { input: 100, output: 10, total: null }, [[100, 10, 0, 0, 0, 'gpt-5']]],
    ['only a total: all extra', { total: 70 }, [[0, 0, 70, 0, 0, 'gpt-5']]],
    ['nothing: no record', { input: 0, output: null }, []],
    ['no model config', { model_config: null, input: 5 }, null],
    ['a blank model name', { model_config: '{"model_name":"  "}', input: 5 }, null],
    ['a model name with spaces around it', { model_config: '{"model_name":" gpt-5 "}', input: 5 }, [[5, 0, 0, 0, 0, 'gpt-5']]],
    ['a damaged model config', { model_config: '{"model_name":', input: 5 }, 'malformed'],
    ['an unreadable created_at', { created_at: 'junk', input: 5 }, null],
    ['no id', { id: null, input: 5 }, null],
  ])('%s', (_name, o, expected) => {
    expect(counts(o)).toEqual(expected);
  });
});

describe('hermes row', () => {
  const row = (o: Record<string, unknown>) => ({ id: 'h', model: 'claude-sonnet-4-5', started_at: 1767398400.5, input: 1000, output: 100, cache_read: 500, cache_write: 200, reasoning: 50, actual_cost: null, ...o });
  const got = (o: Record<string, unknown>) => {
    const r = hermesRow(row(o), '/h/state.db');
    return r === null ? null : [r.timestamp, r.inputTokens, r.outputTokens, r.cacheReadTokens, r.cacheWrite5mTokens, r.extraTokens, r.loggedCost, r.key];
  };
  it.each([
    ['seconds with a fraction; reasoning is extra; no actual cost: priced', {}, [1767398400500, 1000, 100, 500, 200, 50, null, '\u0002hermes\u0000h']],
    ['milliseconds', { started_at: 1767484800000 }, [1767484800000, 1000, 100, 500, 200, 50, null, '\u0002hermes\u0000h']],
    ['an actual cost above 0 is the cost', { actual_cost: 0.25 }, [1767398400500, 1000, 100, 500, 200, 50, 0.25, '\u0002hermes\u0000h']],
    ['an actual cost of 0 or below: priced', { actual_cost: -1 }, [1767398400500, 1000, 100, 500, 200, 50, null, '\u0002hermes\u0000h']],
    ['negative counts are 0', { output: -5, reasoning: null }, [1767398400500, 1000, 0, 500, 200, 0, null, '\u0002hermes\u0000h']],
    ['no tokens: dropped, whatever its cost', { input: 0, output: 0, cache_read: 0, cache_write: 0, reasoning: 0, actual_cost: 0.7 }, null],
    ['a blank model', { model: '  ' }, null],
    ['no started_at', { started_at: null }, null],
    ['an empty id', { id: '' }, null],
  ])('%s', (_name, o, expected) => {
    expect(got(o)).toEqual(expected);
  });
});

describe('where OpenCode keeps its database', () => {
  let dir: string | null = null;
  afterEach(() => {
    if (dir !== null) fs.rmSync(dir, { recursive: true, force: true });
    dir = null;
  });
  it('opencode.db, else the first opencode-<channel>.db by name; nothing in a missing dir', () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'switchboard-opencode-db-'));
    expect(opencodeDatabase(path.join(dir, 'missing'))).toEqual([]);
    expect(opencodeDatabase(dir)).toEqual([]);
    fs.writeFileSync(path.join(dir, 'opencode-zeta.db'), '');
    fs.writeFileSync(path.join(dir, 'opencode-beta.db'), '');
    fs.writeFileSync(path.join(dir, 'opencode-b.c.db'), ''); // not a channel name
    expect(opencodeDatabase(dir)).toEqual([path.join(dir, 'opencode-beta.db')]);
    fs.writeFileSync(path.join(dir, 'opencode.db'), '');
    expect(opencodeDatabase(dir)).toEqual([path.join(dir, 'opencode.db')]);
  });
  it('an absolute XDG_DATA_HOME replaces ~/.local/share for OpenCode only; the variable still wins', () => {
    expect(dirsOf(opencode, undefined, { HOME: '/h', XDG_DATA_HOME: '/x' })).toEqual(['/x/opencode']);
    expect(dirsOf(opencode, undefined, { HOME: '/h', XDG_DATA_HOME: 'x' })).toEqual(['/h/.local/share/opencode']);
    expect(dirsOf(opencode, undefined, { HOME: '/h', XDG_DATA_HOME: '/x', OPENCODE_DATA_DIR: '/o' })).toEqual(['/o']);
    expect(dirsOf(kilo, undefined, { HOME: '/h', XDG_DATA_HOME: '/x' })).toEqual(['/h/.local/share/kilo']);
  });
});
