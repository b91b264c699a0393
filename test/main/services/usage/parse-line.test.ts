import { describe, expect, it } from 'vitest';
import { parseUsageLine } from '../../../../main/services/usage/parse-line.js';
import { parseIsoTimestamp } from '../../../../main/services/usage/timestamp.js';
import { assistantLine } from '../../../fixtures/usage/lines.js';

describe('parseUsageLine', () => {
  it('reads every field a request needs from a Claude Code assistant line', () => {
    const parsed = parseUsageLine(
      assistantLine({ msg: 'msg_A', req: 'req_A', input: 7, output: 120, cacheWrite: 3000, split: [1000, 2000], cacheRead: 90_000, session: 's1', cwd: '/w', version: '2.0.44' }),
    );
    expect(parsed).toEqual({
      messageId: 'msg_A',
      requestId: 'req_A',
      timestamp: Date.UTC(2025, 10, 3, 10),
      model: 'claude-sonnet-4-5-20250929',
      inputTokens: 7,
      outputTokens: 120,
      cacheWrite5mTokens: 1000,
      cacheWrite1hTokens: 2000,
      cacheReadTokens: 90_000,
      sidechain: false,
      fast: false,
      sessionId: 's1',
      cwd: '/w',
      version: '2.0.44',
      loggedCost: null,
    });
  });

  it.each([
    ['the cache_creation object wins over cache_creation_input_tokens', { cacheWrite: 999, split: [100, 0] as [number, number] }, [100, 0]],
    ['without the object, cache_creation_input_tokens are 5-minute writes', { cacheWrite: 999 }, [999, 0]],
    ['1-hour writes stay apart for pricing', { cacheWrite: 50, split: [0, 50] as [number, number] }, [0, 50]],
    ['absent cache fields are zero', {}, [0, 0]],
  ])('%s', (_name, options, [fiveMinutes, oneHour]) => {
    const parsed = parseUsageLine(assistantLine(options));
    expect(parsed).toMatchObject({ cacheWrite5mTokens: fiveMinutes, cacheWrite1hTokens: oneHour });
  });

  it.each([
    ['a truncated line', assistantLine().slice(0, 120)],
    ['a bare null', 'null'],
    ['an array', '[]'],
    ['garbage bytes', '\u0000\u0000\u0000'],
    ['a missing comma', '{"type":"user" "message":{}}'],
    ['negative input tokens', assistantLine({ input: -1 })],
    ['fractional output tokens', assistantLine({ output: 1.5 })],
    ['a null cache read count', assistantLine().replace('"output_tokens":5', '"output_tokens":5,"cache_read_input_tokens":null')],
    ['output tokens as text', assistantLine().replace('"output_tokens":5', '"output_tokens":"5"')],
    ['no output tokens', assistantLine().replace(',"output_tokens":5', '')],
    ['a timestamp with microseconds', assistantLine({ ts: '2025-11-03T10:00:00.000001Z' })],
    ['a timestamp that is not a date', assistantLine({ ts: '2025-02-30T10:00:00Z' })],
    ['a space instead of T', assistantLine({ ts: '2025-11-03 10:00:00Z' })],
    ['an empty request id', assistantLine({ req: '' })],
    ['a version that is not N.N.N', assistantLine({ version: 'beta' })],
    ['a logged cost of 1e308 (issue 27: two of them sum to Infinity)', assistantLine({ costUSD: 1e308 })],
    ['a logged cost over the per-request bound', assistantLine({ costUSD: 10_000.01 })],
    ['a negative logged cost', assistantLine({ costUSD: -1 })],
    ['input tokens of 2^60 (not a safe integer)', assistantLine({ input: 2 ** 60 })],
  ])('counts %s as malformed', (_name, text) => {
    expect(parseUsageLine(text)).toBe('malformed');
  });

  it.each([
    ['an empty object', '{}'],
    ['a user prompt', '{"type":"user","message":{"role":"user","content":"hi"},"timestamp":"2025-11-03T10:00:00Z"}'],
    [
      'a Task result whose usage sits in toolUseResult',
      '{"type":"user","message":{"role":"user","content":[]},"toolUseResult":{"usage":{"input_tokens":5,"output_tokens":9}},"timestamp":"2025-11-03T10:00:00Z"}',
    ],
  ])('finds no request in %s', (_name, text) => {
    expect(parseUsageLine(text)).toBe('none');
  });

  it('reads a progress line from its nested subagent message', () => {
    const inner = JSON.parse(assistantLine({ msg: 'msg_S', req: 'req_S', sidechain: true, ts: '2026-01-10T08:00:00.000Z', output: 40 }));
    const progress = JSON.stringify({
      sessionId: 'parent',
      cwd: '/p',
      version: '2.1.3',
      type: 'progress',
      data: { message: { type: 'assistant', message: inner.message, requestId: 'req_S', isSidechain: true, timestamp: inner.timestamp }, type: 'agent_progress' },
      timestamp: '2026-01-10T08:00:00.030Z',
    });
    expect(parseUsageLine(progress)).toMatchObject({
      messageId: 'msg_S',
      requestId: 'req_S',
      sidechain: true,
      outputTokens: 40,
      timestamp: Date.UTC(2026, 0, 10, 8),
      sessionId: 'parent',
    });
  });

  it('notes the fast speed tier and keeps a missing model as null', () => {
    expect(parseUsageLine(assistantLine({ speed: 'fast', model: null }))).toMatchObject({ fast: true, model: null });
  });
});

describe('parseIsoTimestamp', () => {
  it.each([
    ['2025-11-03T10:00:00Z', Date.UTC(2025, 10, 3, 10)],
    ['2025-11-03T10:00:00.123Z', Date.UTC(2025, 10, 3, 10, 0, 0, 123)],
    ['2025-11-03T10:00:00+02:00', Date.UTC(2025, 10, 3, 8)],
    ['2025-11-03T10:00:00-05:30', Date.UTC(2025, 10, 3, 15, 30)],
    ['2024-02-29T00:00:00Z', Date.UTC(2024, 1, 29)],
    ['2024-02-29T23:59:59.999Z', Date.UTC(2024, 1, 29, 23, 59, 59, 999)],
    ['1999-12-31T00:00:00.001Z', Date.UTC(1999, 11, 31, 0, 0, 0, 1)],
  ])('%s', (text, expected) => {
    expect(parseIsoTimestamp(text)).toBe(expected);
  });

  it.each([
    '2023-02-29T00:00:00Z',
    '2025-13-01T00:00:00Z',
    '2025-11-03T24:00:00Z',
    '2025-11-03T10:00:00',
    '2025-11-03T10:00:00.1Z',
    '2025-11-03T10:00:00+2:00',
    // the 24-character shape has its own fast path
    '2025-02-30T10:00:00.000Z',
    '2025-11-03T10:00:60.000Z',
    '2025-11-03T10:00:00.0a0Z',
    '2025-11-03 10:00:00.000Z',
    '+05-11-03T10:00:00.000Z',
  ])(
    'rejects %s',
    (text) => {
      expect(parseIsoTimestamp(text)).toBeNaN();
    },
  );
});
