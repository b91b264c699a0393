import { describe, expect, it } from 'vitest';
import { readAmp } from '../../../../../main/services/usage/agents/amp.js';
import { readGemini } from '../../../../../main/services/usage/agents/gemini.js';
import { readOpencode } from '../../../../../main/services/usage/agents/opencode.js';
import { Pricing } from '../../../../../main/services/usage/pricing.js';

// Rows checked against ccusage 20.0.24 (`ccusage <agent> daily --json --offline`) on the same files.
const pricing = new Pricing();
const file = (path: string, doc: unknown) => ({ path, text: typeof doc === 'string' ? doc : JSON.stringify(doc), mtimeMs: 0, flags: '' });
const total = (r: { inputTokens: number; outputTokens: number; cacheReadTokens: number; cacheWrite5mTokens: number; extraTokens: number }) =>
  r.inputTokens + r.outputTokens + r.cacheReadTokens + r.cacheWrite5mTokens + r.extraTokens;

describe('gemini', () => {
  const one = (tokens: Record<string, number>, model = 'gemini-2.5-flash') => {
    const doc = { sessionId: 's', startTime: '2026-01-02T10:00:00.000Z', messages: [{ id: 'm', timestamp: '2026-01-02T10:00:03.000Z', type: 'gemini', model, tokens }] };
    const [r] = readGemini(file('/g/x/chats/session-1.json', doc)).records;
    r!.cost = pricing.costOf(r!);
    return [r!.inputTokens, r!.cacheReadTokens, r!.outputTokens, total(r!), r!.cost];
  };
  it.each([
    [{ input: 1000, output: 50, cached: 600, thoughts: 20, tool: 0, total: 1070 }, [400, 600, 50, 1070, 0.000313]],
    [{ input: 1000, output: 50, cached: 600, thoughts: 20, tool: 0, total: 1170 }, [1000, 600, 50, 1650, 0.000493]],
    [{ input: 1000, output: 50, cached: 600, thoughts: 20, tool: 0, total: 0 }, [1000, 600, 50, 1650, 0.000493]],
    [{ input: 1000, output: 50, cached: 600, thoughts: 20, tool: 30, total: 1100 }, [430, 600, 50, 1100, 0.000322]],
    [{ input: 1000, output: 50, cached: 0, thoughts: 20, tool: 30, total: 1200 }, [1030, 0, 50, 1200, 0.000734]],
    [{ input: 1000, output: 0, cached: 0, thoughts: 0, tool: 0, total: 1020 }, [1000, 0, 20, 1020, 0.00035]],
  ])('%j → input, cache read, output, total, cost %j', (tokens, expected) => {
    const got = one(tokens);
    expect(got.slice(0, 4)).toEqual(expected.slice(0, 4));
    expect(got[4]).toBeCloseTo(expected[4]!, 12);
  });

  it('a JSONL line with the id of an earlier one replaces it; damaged lines are counted', () => {
    const m = (output: number) => JSON.stringify({ id: 'j1', timestamp: '2026-01-02T10:00:03.000Z', type: 'gemini', model: 'gemini-2.5-pro', tokens: { input: 10, output, total: 10 + output } });
    const r = readGemini(file('/g/p/chats/session-live.jsonl', [JSON.stringify({ sessionId: 'live' }), m(1), '{oops', m(7)].join('\n')));
    expect(r.records.map((x) => [x.sessionId, x.outputTokens])).toEqual([['live', 7]]);
    expect(r.malformed).toBe(1);
  });
});

describe('opencode', () => {
  const msg = (o: Record<string, unknown>) => file('/o/storage/message/ses_a/msg_1.json', { id: 'msg_1', sessionID: 'ses_a', role: 'assistant', modelID: 'claude-sonnet-4-5', providerID: 'anthropic', cost: 0, time: { created: 1767348000000 }, ...o });
  it('reasoning counts as extra tokens priced as output, with or without a total (agents-usage.md §4, seen)', () => {
    const [r] = readOpencode(msg({ tokens: { input: 100, output: 200, reasoning: 500, cache: { read: 1000, write: 0 } } })).records;
    expect(total(r!)).toBe(1800);
    expect(pricing.costOf(r!)).toBeCloseTo(0.0111, 12);
    const [zero] = readOpencode(msg({ tokens: { input: 100, output: 0, reasoning: 500, cache: { read: 1000, write: 0 } } })).records;
    expect(total(zero!)).toBe(1600);
    expect(pricing.costOf(zero!)).toBeCloseTo(0.0081, 12);
  });
  it('a recorded cost above 0 is the cost (auto mode); one message is one key wherever it is found', () => {
    const [r] = readOpencode(msg({ cost: 0.5, tokens: { input: 1, output: 1, cache: { read: 0, write: 0 } } })).records;
    expect(r).toMatchObject({ loggedCost: 0.5, key: '\u0002opencode\u0000msg_1', agent: 'opencode', sessionId: 'ses_a' });
  });
  it('a message without provider, model or tokens is not usage; a damaged file is counted', () => {
    expect(readOpencode(msg({ providerID: undefined, tokens: { input: 1 } })).records).toEqual([]);
    expect(readOpencode(msg({ role: 'user' })).records).toEqual([]);
    expect(readOpencode(file('/o/x.json', '{')).malformed).toBe(1);
  });
});

describe('amp', () => {
  const usage = { model: 'claude-sonnet-4-5-20250929', timestamp: '2026-01-02T10:00:00.000Z', inputTokens: 10, outputTokens: 20, cacheCreationInputTokens: 30, cacheReadInputTokens: 40, totalTokens: 100 };
  it('assistant message usage; a logged total above the parts is extra', () => {
    const [r] = readAmp(file('/a/threads/T-1.json', { id: 'T-1', messages: [{ role: 'user', messageId: 0 }, { role: 'assistant', messageId: 1, usage }] })).records;
    expect(r).toMatchObject({ sessionId: 'T-1', inputTokens: 10, outputTokens: 20, cacheWrite5mTokens: 30, cacheReadTokens: 40, extraTokens: 0 });
  });
  it('the usage ledger, when present, is used instead, with cache tokens from the message it points to', () => {
    const ledger = { events: [{ timestamp: '2026-01-02T10:00:01.000Z', model: 'claude-sonnet-4-5-20250929', tokens: { input: 5, output: 6, total: 11 }, toMessageId: 1 }] };
    const r = readAmp(file('/a/threads/T-2.json', { id: 'T-2', messages: [{ role: 'assistant', messageId: 1, usage }], usageLedger: ledger })).records;
    expect(r.map((x) => [x.inputTokens, x.outputTokens, x.cacheWrite5mTokens, x.cacheReadTokens])).toEqual([[5, 6, 30, 40]]);
  });
});
