import { describe, expect, it } from 'vitest';
import { codebuff, readCodebuff, usageObject } from '../../../../../main/services/usage/agents/codebuff.js';
import { Pricing } from '../../../../../main/services/usage/pricing.js';

// Each row was run through ccusage 20.0.24 (`ccusage codebuff daily|session --json --offline`) on
// the same messages; the expected figures are what it reported (docs/usage.md, "Every agent").
const pricing = new Pricing();
const MTIME = Date.parse('2026-03-05T12:00:00.000Z');
const CHAT = '/c/manicode/projects/pa/chats/2026-01-02T03-04-05.000Z/chat-messages.json';
const read = (messages: unknown, file = CHAT) => readCodebuff({ path: file, text: JSON.stringify(messages), mtimeMs: MTIME, flags: '' });
const row = (r: ReturnType<typeof readCodebuff>['records'][number]) => [r.timestamp, r.model, r.inputTokens, r.outputTokens, r.cacheWrite5mTokens, r.cacheReadTokens, r.extraTokens];
const assistant = (metadata: object, more: object = {}) => ({ role: 'assistant', timestamp: '2026-01-02T10:00:00.000Z', metadata, ...more });
const T = Date.parse('2026-01-02T10:00:00.000Z');

describe('codebuff: where usage is found', () => {
  it.each<[string, object, unknown[] | null]>([
    ['metadata.usage, camelCase', assistant({ model: 'claude-sonnet-4-20250514', usage: { inputTokens: 100, outputTokens: 50, cacheCreationInputTokens: 20, cacheReadInputTokens: 10 } }), [T, 'claude-sonnet-4-20250514', 100, 50, 20, 10, 0]],
    [
      'OpenAI names; cache read is the largest of its fields; metadata.codebuff.usage fills only what is 0 (its total’s rest included)',
      { variant: 'ai', timestamp: '2026-01-02T10:00:00.000Z', metadata: { model: 'gpt-5', usage: { promptTokens: 1000, completionTokens: 10, promptTokensDetails: { cachedTokens: 300 } }, codebuff: { usage: { inputTokens: 1, outputTokens: 1, cacheReadInputTokens: 5, totalTokens: 5000 } } } },
      [T, 'gpt-5', 1000, 10, 0, 300, 4993],
    ],
    [
      'the run state: latest assistant entry first, earlier ones fill what is 0, the model from providerOptions.codebuff',
      {
        variant: 'agent',
        timestamp: '2026-01-02T10:00:00.000Z',
        metadata: {
          runState: {
            sessionState: {
              mainAgentState: {
                messageHistory: [
                  { role: 'user', providerOptions: {} },
                  { role: 'assistant', providerOptions: { codebuff: { model: 'openai/gpt-5', usage: { prompt_tokens: 100, completion_tokens: 50, prompt_tokens_details: { cached_tokens: 10 } } } } },
                  { role: 'assistant', providerOptions: { usage: { inputTokens: 3, outputTokens: 0, total: 9 } } },
                ],
              },
            },
          },
        },
      },
      [T, 'openai/gpt-5', 3, 6, 0, 10, 0],
    ],
    ['a string count and a fraction are 0; a total above the parts with output 0 is output', assistant({ model: 'gemini-2.5-pro', usage: { inputTokens: '40', outputTokens: 5.5, cacheCreationTokens: 6, totalTokens: 100 } }), [T, 'gemini-2.5-pro', 0, 94, 6, 0, 0]],
    ['snake_case; no model is codebuff-unknown', assistant({ usage: { input_tokens: 11, output_tokens: 2 } }), [T, 'codebuff-unknown', 11, 2, 0, 0, 0]],
    ['credits alone keep the message (its model and day listed, no tokens)', { role: 'assistant', timestamp: '2026-01-02T10:00:00.000Z', credits: 2, metadata: { model: 'claude-sonnet-4-20250514' } }, [T, 'claude-sonnet-4-20250514', 0, 0, 0, 0, 0]],
    ['no tokens and no credits: nothing', assistant({ model: 'gpt-5', usage: { inputTokens: 0 } }), null],
    ['a system message is not usage', { role: 'system', metadata: { usage: { inputTokens: 999 } } }, null],
    ['variant wins over role', { variant: 'user', role: 'assistant', metadata: { usage: { inputTokens: 999 } } }, null],
  ])('%s', (_name, message, expected) => {
    expect(read([{ role: 'user', text: 'hi' }, message]).records.map(row)).toEqual(expected === null ? [] : [expected]);
  });

  it('a total beside logged output is extra tokens, priced as output', () => {
    expect(usageObject({ inputTokens: 1, outputTokens: 1, cacheReadInputTokens: 5, totalTokens: 5000 })).toMatchObject({ input: 1, output: 1, cacheRead: 5, extra: 4993 });
    expect(usageObject({ totalTokens: 789 })).toMatchObject({ output: 789, extra: 0 });
    const [r] = read([assistant({ model: 'gpt-5', usage: { promptTokens: 1000, completionTokens: 10, promptTokensDetails: { cachedTokens: 300 }, totalTokens: 6303 } })]).records;
    expect(pricing.costOf(r!)).toBeCloseTo(0.0513175, 12); // ccusage: 1000 in, 10 out, 300 cache read, 4993 extra of gpt-5
  });
});

describe('codebuff: time, session and duplicates', () => {
  const at = (fields: object, file = CHAT) => read([{ role: 'assistant', metadata: { model: 'gpt-5', usage: { inputTokens: 1 } }, ...fields }], file).records[0]!.timestamp;
  it.each<[string, object, number]>([
    ['timestamp, ISO', { timestamp: '2026-01-05T11:00:00+09:00' }, Date.parse('2026-01-05T02:00:00Z')],
    ['createdAt in epoch seconds', { createdAt: 1767400000 }, 1767400000000],
    ['createdAt in epoch ms', { createdAt: 1767400000123 }, 1767400000123],
    ['metadata.timestamp', { metadata: { model: 'gpt-5', timestamp: '2026-01-05T01:00:00Z', usage: { inputTokens: 1 } } }, Date.parse('2026-01-05T01:00:00Z')],
    ['none: the chat folder’s name', {}, Date.parse('2026-01-02T03:04:05.000Z')],
    ['six fraction digits are not read: the chat folder’s name', { timestamp: '2026-01-05T11:00:00.123456Z' }, Date.parse('2026-01-02T03:04:05.000Z')],
  ])('%s', (_name, fields, expected) => {
    expect(at(fields)).toBe(expected);
  });

  it('a chat folder without a time and no message time: the file mtime; a date alone is no time', () => {
    expect(at({}, '/c/manicode/projects/pb/chats/chat-x/chat-messages.json')).toBe(MTIME);
    expect(at({ timestamp: '2026-01-07' }, '/c/manicode/projects/pb/chats/chat-x/chat-messages.json')).toBe(MTIME);
  });

  it('session = channel/project/chat; one message id counts once, the later copy winning', () => {
    const r = read([
      { id: 'a1', ...assistant({ model: 'claude-sonnet-4-20250514', usage: { inputTokens: 100, outputTokens: 50 } }) },
      { id: 'a1', ...assistant({ model: 'claude-sonnet-4-20250514', usage: { inputTokens: 7, outputTokens: 5 } }) },
    ]).records;
    expect(r.map((x) => [x.sessionId, x.inputTokens, x.outputTokens])).toEqual([['manicode/pa/2026-01-02T03-04-05.000Z', 7, 5]]);
    const other = read([{ id: 'a1', ...assistant({ usage: { inputTokens: 1 } }) }], '/d/manicode-dev/projects/pa/chats/2026-01-02T03-04-05.000Z/chat-messages.json').records[0]!;
    expect(other.sessionId).toBe('manicode-dev/pa/2026-01-02T03-04-05.000Z');
    expect(other.key).not.toBe(r[0]!.key);
  });

  it('a file that is not a JSON array is malformed', () => {
    expect(readCodebuff({ path: CHAT, text: '[{"role": "assistant"', mtimeMs: 0, flags: '' })).toEqual({ records: [], malformed: 1 });
    expect(readCodebuff({ path: CHAT, text: '{"messages": []}', mtimeMs: 0, flags: '' })).toEqual({ records: [], malformed: 1 });
  });

  it('roots: <dir>/projects, or the dir itself when it is a projects folder; only chat-messages.json', () => {
    expect(codebuff.roots('/h/.config/manicode')).toEqual(['/h/.config/manicode/projects']);
    expect(codebuff.roots('/h/x/projects')).toEqual(['/h/x/projects']);
    expect(codebuff.accepts(CHAT)).toBe(true);
    expect(codebuff.accepts('/c/manicode/projects/pa/chats/c/run-state.json')).toBe(false);
  });
});
