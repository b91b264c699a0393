import { describe, expect, it } from 'vitest';
import type { RequestEntry } from '../../../../../renderer/src/api-types.js';
import {
  asEntry,
  hasFilters,
  matchesFilters,
  mergeNewest,
  modelLabel,
  NO_FILTERS,
  outcomeLabel,
  percent,
  requestCost,
  toQuery,
} from '../../../../../renderer/src/pages/traffic/traffic-format.js';

const entry = (e: Partial<RequestEntry> = {}): RequestEntry => ({
  id: 'r1',
  time: 1_700_000_000_000,
  format: 'openai',
  method: 'POST',
  path: '/v1/chat/completions',
  modelRequested: 'gpt-4o',
  modelSent: 'gpt-4o',
  upstream: 'openai',
  keyIndex: 0,
  status: 200,
  outcome: 'ok',
  latencyMs: 120,
  ttfbMs: 40,
  tokens: { input: 10, output: 5, cacheRead: 0, cacheWrite: 0 },
  costUSD: 0.0001,
  session: null,
  error: null,
  errorLog: null,
  ...e,
});

describe('matchesFilters: live rows obey the filters the table was loaded with', () => {
  const f = (patch: Partial<typeof NO_FILTERS>) => ({ ...NO_FILTERS, ...patch });
  it.each([
    ['no filters', f({}), entry(), true],
    ['ok keeps a 200', f({ status: 'ok' }), entry(), true],
    ['ok drops a 502', f({ status: 'ok' }), entry({ status: 502, outcome: 'error' }), false],
    ['ok drops a client that hung up', f({ status: 'ok' }), entry({ status: 499, outcome: 'aborted' }), false],
    ['error drops a client that hung up', f({ status: 'error' }), entry({ status: 499, outcome: 'aborted' }), false],
    ['ok drops a stream that failed after its 200', f({ status: 'ok' }), entry({ outcome: 'stream_error' }), false],
    ['error keeps a failed stream', f({ status: 'error' }), entry({ outcome: 'stream_error' }), true],
    ['error keeps a 401', f({ status: 'error' }), entry({ status: 401, outcome: 'error' }), true],
    ['error drops a 200', f({ status: 'error' }), entry(), false],
    ['4xx keeps a 404', f({ status: '4xx' }), entry({ status: 404, outcome: 'error' }), true],
    ['4xx drops a 502', f({ status: '4xx' }), entry({ status: 502, outcome: 'error' }), false],
    ['an exact code', f({ status: '429' }), entry({ status: 429, outcome: 'error' }), true],
    ['an exact code, other status', f({ status: '429' }), entry({ status: 500, outcome: 'error' }), false],
    ['model matches the asked name', f({ model: 'sonnet' }), entry({ modelRequested: 'sonnet', modelSent: 'claude-sonnet-4-5' }), true],
    ['model matches the sent name', f({ model: 'claude-sonnet-4-5' }), entry({ modelRequested: 'sonnet', modelSent: 'claude-sonnet-4-5' }), true],
    ['model matches neither', f({ model: 'gpt-4o-mini' }), entry(), false],
    ['upstream', f({ upstream: 'anthropic' }), entry(), false],
    ['all at once', f({ status: 'ok', model: 'gpt-4o', upstream: 'openai' }), entry(), true],
  ])('%s', (_name, filters, e, expected) => {
    expect(matchesFilters(e, filters)).toBe(expected);
  });

  it('empty filters stay out of the query', () => {
    expect(toQuery(NO_FILTERS, 200)).toEqual({ status: undefined, model: undefined, upstream: undefined, limit: 200 });
    expect(toQuery({ status: 'error', model: ' gpt-4o ', upstream: '' }, 50)).toEqual({ status: 'error', model: 'gpt-4o', upstream: undefined, limit: 50 });
    expect(hasFilters(NO_FILTERS)).toBe(false);
    expect(hasFilters({ ...NO_FILTERS, model: 'x' })).toBe(true);
  });
});

describe('mergeNewest', () => {
  it('puts new rows on top, drops duplicates, keeps the limit', () => {
    const rows = [entry({ id: 'b' }), entry({ id: 'a' })];
    expect(mergeNewest([entry({ id: 'c' }), entry({ id: 'b' })], rows, 10).map((e) => e.id)).toEqual(['c', 'b', 'a']);
    expect(mergeNewest([entry({ id: 'c' })], rows, 2).map((e) => e.id)).toEqual(['c', 'b']);
  });
});

describe('labels', () => {
  it('model: one name when sent as asked, else asked → sent', () => {
    expect(modelLabel({ modelRequested: 'gpt-4o', modelSent: 'gpt-4o' })).toBe('gpt-4o');
    expect(modelLabel({ modelRequested: 'sonnet', modelSent: 'claude-sonnet-4-5' })).toBe('sonnet → claude-sonnet-4-5');
    expect(modelLabel({ modelRequested: null, modelSent: null })).toBe('—');
  });

  it('outcome: words for every kind, never colour alone', () => {
    expect(outcomeLabel({ status: 200, outcome: 'ok' })).toEqual({ kind: 'ok', text: '200' });
    expect(outcomeLabel({ status: 502, outcome: 'error' })).toEqual({ kind: 'bad', text: '502' });
    expect(outcomeLabel({ status: 200, outcome: 'stream_error' })).toEqual({ kind: 'bad', text: '200 · stream failed' });
    expect(outcomeLabel({ status: 499, outcome: 'aborted' })).toEqual({ kind: 'off', text: 'client closed' });
  });

  it('cost keeps four decimals under a dollar; percent is never a false zero', () => {
    expect(requestCost(null)).toBe('—');
    expect(requestCost(0)).toBe('$0');
    expect(requestCost(0.00003)).toBe('<$0.0001');
    expect(requestCost(0.0123)).toBe('$0.0123');
    expect(requestCost(2.5)).toBe('$2.50');
    expect(percent(null)).toBe('—');
    expect(percent(0)).toBe('0.0%');
    expect(percent(0.0004)).toBe('<0.1%');
    expect(percent(0.25)).toBe('25%');
  });

  it('asEntry accepts a request entry and nothing else', () => {
    expect(asEntry(entry())?.id).toBe('r1');
    expect(asEntry(undefined)).toBeNull();
    expect(asEntry({ id: 1, time: 1, status: 200 })).toBeNull();
    expect(asEntry('text')).toBeNull();
  });
});
