import { describe, expect, it } from 'vitest';
import type { RequestLogEntry } from '../../../../../main/engines/proxy-engine/traffic/request-entry.js';
import { filterQuery, MinuteCounter, parseRequestFilter, requestStats, selectEntries } from '../../../../../main/engines/proxy-engine/traffic/request-query.js';

const parse = (q: string) => {
  const params = new URLSearchParams(q);
  return parseRequestFilter((n) => params.get(n) ?? undefined);
};

describe('parseRequestFilter', () => {
  it('reads every field and round-trips through filterQuery', () => {
    const r = parse('status=5xx&model=m&upstream=u&since=2026-01-01T00:00:00Z&limit=7');
    expect(r).toEqual({ ok: true, filter: { status: { kind: 'class', hundreds: 5 }, model: 'm', upstream: 'u', since: Date.UTC(2026, 0, 1), limit: 7 } });
    if (r.ok) expect(parse(filterQuery(r.filter))).toEqual(r);
    expect(parse('')).toEqual({ ok: true, filter: { limit: 100 } });
    expect(parse('since=1767225600000&status=ERROR')).toEqual({ ok: true, filter: { since: 1767225600000, status: { kind: 'error' }, limit: 100 } });
  });

  it.each([
    ['status=fine', 'status'],
    ['status=99', 'status'],
    ['status=6xx', 'status'],
    ['since=soon', 'since'],
    ['since=2026-13-45', 'since'],
    ['limit=0', 'limit'],
    ['limit=1001', 'limit'],
    ['limit=2.5', 'limit'],
  ])('refuses %s naming %s', (q, field) => {
    const r = parse(q);
    expect(r.ok).toBe(false);
    if (!r.ok) {
      expect(r.field).toBe(field);
      expect(r.message).toContain(field);
    }
  });
});

const e = (over: Partial<RequestLogEntry>): RequestLogEntry => ({
  id: 'x',
  time: 1000,
  format: 'openai',
  method: 'POST',
  path: '/v1/chat/completions',
  modelRequested: 'asked',
  modelSent: 'sent',
  upstream: 'oa',
  keyIndex: 0,
  status: 200,
  outcome: 'ok',
  latencyMs: 1,
  ttfbMs: null,
  tokens: null,
  session: null,
  error: null,
  errorLog: null,
  ...over,
});

describe('selectEntries', () => {
  const rows = [
    e({ id: 'a', status: 200 }),
    e({ id: 'b', status: 429, outcome: 'error', upstream: 'an' }),
    e({ id: 'c', status: 502, outcome: 'stream_error', time: 5000 }),
    e({ id: 'd', status: 499, outcome: 'aborted', modelRequested: 'alias', modelSent: 'real' }),
  ];
  const ids = (q: string) => {
    const r = parse(q);
    if (!r.ok) throw new Error(r.message);
    return selectEntries(rows, r.filter).requests.map((x) => x.id);
  };
  it.each([
    ['status=ok', ['a']],
    ['status=error', ['b', 'c']],
    ['status=4xx', ['b', 'd']],
    ['status=502', ['c']],
    ['model=alias', ['d']],
    ['model=real', ['d']],
    ['model=sent', ['a', 'b', 'c']],
    ['upstream=an', ['b']],
    ['since=5000', ['c']],
    ['limit=2', ['a', 'b']],
  ])('%s → %j', (q, expected) => expect(ids(q)).toEqual(expected));

  it('counts every match in total, beyond the limit', () => {
    const r = parse('limit=1');
    if (r.ok) expect(selectEntries(rows, r.filter).total).toBe(4);
  });
});

describe('requestStats', () => {
  it('fills 61 minutes with zeros, rates over the last 5 minutes, error rate over the hour', () => {
    const m = new MinuteCounter();
    const base = 1_767_225_600_000;
    for (let i = 0; i < 10; i++) m.add({ time: base - 30 * 60_000, outcome: 'ok' });
    for (let i = 0; i < 5; i++) m.add({ time: base - 2 * 60_000, outcome: i === 0 ? 'error' : 'ok' });
    m.add({ time: base - 2 * 60 * 60_000, outcome: 'error' }); // outside the hour
    const now = base + 30_000; // half-way through the current minute
    const s = requestStats(m.series(now), now, null);
    expect(s.perMinute).toHaveLength(61);
    expect(s.perMinute[0]!.minute).toBe(base - 60 * 60_000);
    expect(s.perMinute.at(-1)).toEqual({ minute: base, requests: 0, errors: 0 });
    expect(s.requestsPerMinute).toBeCloseTo(5 / 5.5, 2);
    expect(s.errorRate).toBeCloseTo(1 / 15, 10);
    expect(requestStats(new MinuteCounter().series(now), now, null)).toMatchObject({ errorRate: null, requestsPerMinute: 0, lastError: null });
  });
});
