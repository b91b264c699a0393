import { describe, expect, it } from 'vitest';
import { parseCache, serializeCache, type CacheSnapshot } from '../../../../main/services/usage/disk-cache.js';
import type { FileState } from '../../../../main/services/usage/usage-store.js';
import { usageRecord } from '../../../fixtures/usage/lines.js';

const identity = { agentDir: '/a', instancesDir: '/c/instances' };
const file = '/a/projects/café/s.jsonl';
const other = '/a/projects/p/t.jsonl';
const a = usageRecord({ key: 'm1\u0000r1', file, offset: 0, cost: 0.25, inputTokens: 3, model: 'claude-opus-4-6', fast: true, projectPath: '/home/josé' });
const b = usageRecord({ key: 'm1\u0000r1', file, offset: 120, cost: 0.5, sidechain: true, version: null });
const c = usageRecord({ key: null, file, offset: 240, cost: 0, model: null });
const d = usageRecord({ key: 'ключ\u0000r2', file: other, offset: 0, cost: 1, sessionId: 's2' });
const state: FileState = { path: file, size: 400, mtimeMs: 1.5, ino: 7, offset: 360, fingerprint: 'fp', records: [a, b], tail: [c], malformed: 2, tailMalformed: 1 };
const second: FileState = { path: other, size: 90, mtimeMs: 2, ino: 8, offset: 90, fingerprint: 'fq', records: [d], tail: [], malformed: 0, tailMalformed: 0 };
const snapshot: CacheSnapshot = { lastFetch: 1234, files: [state, second], kept: [a, c, d], seenAnomalies: ['cost_spike|2026-01-01'] };

const damaged = (mutate: (o: any) => void) => {
  const o = JSON.parse(serializeCache(snapshot, identity, 'p'));
  mutate(o);
  return parseCache(JSON.stringify(o), identity, 'p');
};

describe('disk cache format', () => {
  it('round-trips files, records, the kept set and announced anomalies, as ASCII', () => {
    const text = serializeCache(snapshot, identity, 'prices-1');
    expect(/^[\x00-\x7f]*$/.test(text)).toBe(true);
    const back = parseCache(Buffer.from(text).toString('latin1'), identity, 'prices-1')!;
    expect(back.lastFetch).toBe(1234);
    expect(back.seenAnomalies).toEqual(['cost_spike|2026-01-01']);
    expect(back.files).toEqual([state, second]);
    expect(back.kept).toEqual([a, c, d]);
  });

  it('drops the kept set when the price table changed, so costs are computed again', () => {
    expect(parseCache(serializeCache(snapshot, identity, 'prices-1'), identity, 'prices-2')!.kept).toBeNull();
  });

  it('is unusable for another agent dir', () => {
    expect(parseCache(serializeCache(snapshot, identity, 'p'), { ...identity, agentDir: '/other' }, 'p')).toBeNull();
  });

  it('is unusable when truncated', () => {
    const text = serializeCache(snapshot, identity, 'p');
    expect(parseCache(text.slice(0, text.length - 10), identity, 'p')).toBeNull();
  });

  it.each([
    ['a record count that does not fit', (o: any) => (o.files[0][8] += 1)],
    ['fewer records than the files claim', (o: any) => (o.files[1][8] = 0)],
    ['numbers of the wrong size', (o: any) => (o.numbers = o.numbers.slice(0, 8))],
    ['keys longer than their lengths', (o: any) => (o.keyText = Buffer.from(Buffer.from(o.keyText, 'base64').toString() + 'x').toString('base64'))],
    ['a file row naming another file', (o: any) => (o.files[0][0] = '/a/projects/x.jsonl')],
    ['a reference outside the string table', (o: any) => (o.files[0][10] = [])],
    ['an older format', (o: any) => (o.version = 2)],
  ])('is unusable with %s', (_name, mutate) => {
    expect(damaged(mutate)).toBeNull();
  });
});
