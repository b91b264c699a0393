import { describe, expect, it } from 'vitest';
import { normaliseDroidModel, readDroid } from '../../../../../main/services/usage/agents/droid.js';
import { openclaw } from '../../../../../main/services/usage/agents/openclaw.js';
import { pi } from '../../../../../main/services/usage/agents/pi.js';
import { readQwen } from '../../../../../main/services/usage/agents/qwen.js';
import { Pricing } from '../../../../../main/services/usage/pricing.js';

// Rows observed with ccusage 20.0.24 on the same lines (docs/usage.md, "Every agent").
const pricing = new Pricing();
const file = (path: string, lines: object[]) => ({ path, text: lines.map((l) => JSON.stringify(l)).join('\n') + '\n', mtimeMs: 0, flags: '' });
const priced = <T extends { cost: number }>(records: T[]) => records.map((r) => ({ ...r, cost: pricing.costOf(r as never) }));

describe('qwen', () => {
  const a = (uuid: string, ts: string, usage: object, model: string | null = 'qwen3-coder-plus') => ({ uuid, sessionId: 's1', timestamp: ts, type: 'assistant', ...(model ? { model } : {}), usageMetadata: usage });
  it('cached is a cache read and stays in the prompt; thoughts are extra; no model is `unknown`; a total above the parts with no output is output', () => {
    const r = readQwen(file('/q/projects/-w-app/chats/s1.jsonl', [
      { uuid: 'u1', sessionId: 's1', timestamp: '2026-01-02T10:00:00.000Z', type: 'user' },
      a('a1', '2026-01-02T10:00:05.000Z', { promptTokenCount: 1000, candidatesTokenCount: 50, cachedContentTokenCount: 600, thoughtsTokenCount: 20, totalTokenCount: 1070 }),
      a('a3', '2026-01-03T01:00:00.000Z', { promptTokenCount: 10, candidatesTokenCount: 0, totalTokenCount: 30 }, null),
    ])).records;
    expect(r.map((x) => [x.inputTokens, x.cacheReadTokens, x.outputTokens, x.extraTokens, x.model, x.projectPath])).toEqual([
      [1000, 600, 50, 20, 'qwen3-coder-plus', '-w-app'],
      [10, 0, 20, 0, 'unknown', '-w-app'],
    ]);
    expect(priced(r)[0]!.cost).toBeCloseTo((1000 * 1 + 600 * 0.1 + 50 * 5 + 20 * 5) / 1e6, 12); // qwen3-coder-plus: thoughts at the output rate
  });
  it('the same usage of a session at the same instant is one key, whatever the uuid; other counts are another', () => {
    const u = { promptTokenCount: 1, candidatesTokenCount: 1, totalTokenCount: 2 };
    const [x, y, z] = readQwen(file('/q/projects/p/chats/s.jsonl', [a('a3', '2026-01-02T23:31:05.000Z', u), a('a4', '2026-01-02T23:31:05.000Z', u), a('a4', '2026-01-02T23:31:05.000Z', { ...u, promptTokenCount: 2 })])).records;
    expect(x!.key).toBe(y!.key);
    expect(z!.key).not.toBe(x!.key);
  });
});

describe('pi and openclaw', () => {
  const msg = (id: string, ts: string, usage: object, model?: string) => ({ type: 'message', id, timestamp: ts, message: { role: 'assistant', ...(model ? { model } : {}), usage } });
  const lines = [
    { type: 'session', id: 'p1', timestamp: '2026-01-02T09:00:00.000Z', cwd: '/w/pi' },
    { type: 'model_change', timestamp: '2026-01-02T09:00:00.000Z', modelId: 'claude-sonnet-4-5' },
    msg('m1', '2026-01-02T10:00:00.000Z', { input: 100000, output: 100, cacheRead: 1000, cacheWrite: 500, totalTokens: 101600, cost: { total: 0.5 } }, 'claude-sonnet-4-5'),
    msg('m2', '2026-01-02T10:01:00.000Z', { input: 100000, output: 0, totalTokens: 100000, cost: { total: 0 } }, 'claude-sonnet-4-5'),
    msg('m3', '2026-01-02T10:02:00.000Z', { input: 100000, output: 0, totalTokens: 100050 }, 'claude-sonnet-4-5'),
    msg('m4', '2026-01-02T10:03:00.000Z', { input: 100000, output: 10, totalTokens: 100060 }),
    { type: 'message', id: 'u1', timestamp: '2026-01-02T10:03:00.000Z', message: { role: 'user', usage: { input: 5, output: 5 } } },
  ];
  it('pi: a recorded cost is the cost, 0 included; else priced; a message without a model is unpriced (no model events)', () => {
    const r = priced(pi.read(file('/p/s.jsonl', lines)).records);
    expect(r.map((x) => [x.model, x.loggedCost, x.outputTokens, x.sessionId, x.projectPath])).toEqual([
      ['[pi] claude-sonnet-4-5', 0.5, 100, 'p1', '/w/pi'],
      ['[pi] claude-sonnet-4-5', 0, 0, 'p1', '/w/pi'],
      ['[pi] claude-sonnet-4-5', null, 50, 'p1', '/w/pi'],
      [null, null, 10, 'p1', '/w/pi'],
    ]);
    expect(r[2]!.cost).toBeCloseTo(0.30075, 12); // the total's rest went to output (none logged)
    expect(r[3]!.cost).toBe(0);
  });
  it('openclaw: the model comes from model_change; the rest of a total beside logged output counts but is not priced; archived copies are its files', () => {
    const r = priced(openclaw.read(file('/o/agents/main/sessions/s.jsonl', lines)).records);
    expect(r[3]).toMatchObject({ model: '[openclaw] claude-sonnet-4-5', outputTokens: 10, extraTokens: 50 });
    expect(r[3]!.cost).toBeCloseTo((100000 * 3 + 10 * 15) / 1e6, 12);
    expect(openclaw.accepts('/o/s.jsonl.deleted.2026-01-03T00-00-00')).toBe(true);
    expect(openclaw.accepts('/o/s.jsonl.reset.1767000000')).toBe(true);
    expect(pi.accepts('/o/s.jsonl.deleted.2026-01-03T00-00-00')).toBe(false);
  });
});

describe('droid', () => {
  it('a session total on its provider lock time; thinking is extra and priced; the model as ccusage names it', () => {
    const doc = { model: 'custom:Claude-Sonnet-4.5-[Anthropic]', providerLockTimestamp: '2026-01-02T10:00:00.000Z', tokenUsage: { inputTokens: 1000, outputTokens: 200, cacheCreationTokens: 300, cacheReadTokens: 4000, thinkingTokens: 50, totalTokens: 5550 } };
    const [r] = priced(readDroid({ path: '/d/p/abc.settings.json', text: JSON.stringify(doc), mtimeMs: 0, flags: '' }).records);
    expect(r).toMatchObject({ model: 'claude-sonnet-4-5', sessionId: 'abc', extraTokens: 50, key: '\u0002droid\u0000abc' });
    expect(r!.cost).toBeCloseTo(0.009075, 12);
  });
  it.each([
    ['gpt-5.1-codex', 'gpt-5-1-codex'],
    ['custom:GLM 4.6 [Z.ai]', 'glm-4-6'],
    [null, 'unknown'],
  ])('%s → %s, priced by the dotted name', (model, listed) => {
    expect(normaliseDroidModel(model)).toBe(listed);
  });
  it('gpt-5-1-codex is priced as gpt-5.1-codex (ccusage: 0.000625 for 100 in + 50 out)', () => {
    const doc = { model: 'gpt-5.1-codex', providerLockTimestamp: '2026-01-02T23:30:00.000Z', tokenUsage: { inputTokens: 100, outputTokens: 0, totalTokens: 150 } };
    const [r] = priced(readDroid({ path: '/d/p/def.settings.json', text: JSON.stringify(doc), mtimeMs: 0, flags: '' }).records);
    expect(r!.outputTokens).toBe(50);
    expect(r!.cost).toBeCloseTo(0.000625, 12);
  });
});
