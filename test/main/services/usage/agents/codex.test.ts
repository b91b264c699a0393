import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { codex, readCodex } from '../../../../../main/services/usage/agents/codex.js';

// Each table row was run through ccusage 20.0.24 (`ccusage codex daily --json --offline`) too; the
// expected counts are what it reported.
const H = '/h/.codex';
const FILE = path.join(H, 'sessions', '2026', '01', '02', 'rollout-a.jsonl');
const u = (input: number, cached: number, output: number, reasoning = 0) => ({ input_tokens: input, cached_input_tokens: cached, output_tokens: output, reasoning_output_tokens: reasoning, total_tokens: input + output });
const tc = (ts: string, total: object | null, last: object | null) =>
  JSON.stringify({ timestamp: ts, type: 'event_msg', payload: { type: 'token_count', info: total === null && last === null ? null : { ...(total ? { total_token_usage: total } : {}), ...(last ? { last_token_usage: last } : {}) } } });
const ctx = (model: string) => JSON.stringify({ timestamp: '2026-01-02T10:00:01.000Z', type: 'turn_context', payload: { cwd: '/w/api', model } });

function read(lines: string[], file = FILE, flags = '') {
  return readCodex({ path: file, text: lines.join('\n') + '\n', mtimeMs: Date.parse('2026-01-06T12:00:00Z'), flags });
}
const sums = (lines: string[], file?: string) =>
  read(lines, file).records.reduce((s, r) => ({ input: s.input + r.inputTokens, cached: s.cached + r.cacheReadTokens, output: s.output + r.outputTokens }), { input: 0, cached: 0, output: 0 });

describe('codex counting (agents-usage.md §2, checked against ccusage 20.0.24)', () => {
  it('per-turn usage counts; a re-emitted event (total unchanged) counts once; cached input is cache read', () => {
    const e = tc('2026-01-02T10:00:05.000Z', u(1000, 400, 100, 40), u(1000, 400, 100, 40));
    expect(sums([ctx('gpt-5-codex'), e, e.replace(':05.', ':06.')])).toEqual({ input: 600, cached: 400, output: 100 });
  });

  it('an event with only the cumulative total counts its growth', () => {
    const lines = [ctx('gpt-5-codex'), tc('2026-01-02T10:00:05.000Z', u(1000, 400, 100), u(1000, 400, 100)), tc('2026-01-02T10:01:05.000Z', u(3000, 400, 300), null)];
    expect(sums(lines)).toEqual({ input: 2600, cached: 400, output: 300 });
  });

  it('the turn usage wins over the growth of the total (1000 → 3000 with last 500 counts 500)', () => {
    const lines = [ctx('gpt-5'), tc('2026-01-02T10:00:05.000Z', u(1000, 0, 0), u(1000, 0, 0)), tc('2026-01-02T10:00:09.000Z', u(3000, 0, 0), u(500, 0, 0))];
    expect(sums(lines).input).toBe(1500);
  });

  it('events without totals count every time; identical ones collapse only at the same instant (7 + 7 + 7 → 14)', () => {
    const last = u(7, 0, 0);
    expect(sums([tc('2026-01-05T11:00:00.000Z', null, last), tc('2026-01-05T11:00:00.000Z', null, last), tc('2026-01-05T11:00:10.000Z', null, last)]).input).toBe(14);
  });

  it('rate-limit events (info null) and damaged lines count nothing; damaged lines are counted as such', () => {
    const r = read([ctx('gpt-5'), tc('2026-01-02T10:00:05.000Z', null, null), '{"cut', tc('2026-01-02T10:00:06.000Z', u(10, 0, 1), u(10, 0, 1))]);
    expect(r.records.map((x) => x.inputTokens)).toEqual([10]);
    expect(r.malformed).toBe(1);
  });

  it('a forked sub-agent file skips the parent history it replays at its creation second, from its baseline on', () => {
    const meta = JSON.stringify({ timestamp: '2026-01-03T10:05:00.123Z', type: 'session_meta', payload: { id: 'b', cwd: '/w/api', source: { subagent: { thread_spawn: { parent_thread_id: 'a', depth: 1 } } } } });
    const lines = [
      meta,
      ctx('gpt-5-codex'),
      tc('2026-01-03T10:05:00.300Z', u(1000, 400, 100), u(1000, 400, 100)),
      tc('2026-01-03T10:05:00.400Z', u(3000, 400, 300), u(2000, 0, 200)),
      tc('2026-01-03T10:05:10.000Z', u(3500, 500, 310), null),
    ];
    expect(sums(lines)).toEqual({ input: 400, cached: 100, output: 10 });
    // The same file without thread_spawn is an ordinary session: everything counts.
    expect(sums(lines.map((l) => l.replace('thread_spawn', 'other')))).toEqual({ input: 3000, cached: 500, output: 310 });
  });

  it('headless `codex exec --json` lines: usage with aliases, epoch seconds, the file time when none; the model sticks', () => {
    const lines = [
      '{"type":"thread.started","thread_id":"t1"}',
      '{"type":"turn.completed","timestamp":"2026-01-05T10:00:00.000Z","usage":{"input_tokens":1000,"cached_input_tokens":200,"output_tokens":50}}',
      '{"type":"turn.completed","created_at":1767607200,"model":"gpt-5.4","usage":{"prompt_tokens":100,"completion_tokens":10,"cached_tokens":0}}',
      '{"type":"turn.completed","usage":{"input_tokens":7,"output_tokens":1}}',
    ];
    const r = read(lines, '/h/exec/e.jsonl').records;
    expect(r.map((x) => [new Date(x.timestamp).toISOString(), x.model, x.inputTokens, x.cacheReadTokens, x.outputTokens])).toEqual([
      ['2026-01-05T10:00:00.000Z', 'gpt-5', 800, 200, 50],
      ['2026-01-05T10:00:00.000Z', 'gpt-5.4', 100, 0, 10],
      ['2026-01-06T12:00:00.000Z', 'gpt-5.4', 7, 0, 1],
    ]);
    expect(r[0]!.sessionId).toBe('e');
  });

  it('names the session by its path below sessions/, the project by its cwd; the fast tier marks every request', () => {
    const [r] = read([ctx('gpt-5.4'), tc('2026-01-02T10:00:05.000Z', u(10, 0, 1), u(10, 0, 1))], FILE, 'fast').records;
    expect(r).toMatchObject({ agent: 'codex', sessionId: '2026/01/02/rollout-a', projectPath: '/w/api', model: 'gpt-5.4', fast: true, extraTokens: 0 });
  });

  it('counts a session once when it is both live and archived; an archived-only one counts', () => {
    const live = path.join(H, 'sessions', '2026', '01', '02', 'a.jsonl');
    const copy = path.join(H, 'archived_sessions', '2026', '01', '02', 'a.jsonl');
    const only = path.join(H, 'archived_sessions', '2026', '01', '01', 'b.jsonl');
    expect([...codex.choose!([live, copy, only])].sort()).toEqual([only, live].sort());
  });
});
