import { describe, expect, it } from 'vitest';
import { DedupIndex, dedupe } from '../../../../main/services/usage/dedupe.js';
import { parseUsageLine } from '../../../../main/services/usage/parse-line.js';
import { toUsageRecord } from '../../../../main/services/usage/record.js';
import type { ParsedUsage, UsageRecord } from '../../../../main/services/usage/types.js';
import { assistantLine, type LineOptions } from '../../../fixtures/usage/lines.js';

/** Lines of one file, each at its own offset, through parse and record like the scanner does. */
function fileRecords(file: string, lines: LineOptions[]): UsageRecord[] {
  let offset = 0;
  return lines.map((o) => {
    const text = assistantLine(o);
    const record = toUsageRecord(parseUsageLine(text) as ParsedUsage, file, offset);
    offset += text.length + 1;
    return record;
  });
}

const summaryOf = (records: UsageRecord[]) =>
  records.map((r) => ({ key: r.key, output: r.outputTokens, side: r.sidechain, file: r.file, ts: new Date(r.timestamp).toISOString() }));

describe('de-duplication (message.id + requestId, ccusage rule)', () => {
  it('keeps the line with the largest total of a message split into partial lines, and its date', () => {
    const records = fileRecords('/a/s.jsonl', [
      { msg: 'm1', req: 'r1', output: 3, ts: '2025-11-03T23:59:58.000Z' },
      { msg: 'm1', req: 'r1', output: 3, ts: '2025-11-03T23:59:59.000Z' },
      { msg: 'm1', req: 'r1', output: 250, ts: '2025-11-04T00:00:01.000Z' },
    ]);
    expect(summaryOf(dedupe(records))).toEqual([{ key: 'm1\u0000r1', output: 250, side: false, file: '/a/s.jsonl', ts: '2025-11-04T00:00:01.000Z' }]);
  });

  it('prefers a main-chain line over a sidechain copy even when the copy is larger', () => {
    const records = fileRecords('/a/s.jsonl', [
      { msg: 'm1', req: 'r1', output: 900, sidechain: true },
      { msg: 'm1', req: 'r1', output: 10 },
    ]);
    expect(summaryOf(dedupe(records))).toMatchObject([{ output: 10, side: false }]);
  });

  it('breaks a full tie by path order, then by position in the file', () => {
    const later = fileRecords('/b/s.jsonl', [{ msg: 'm1', req: 'r1', ts: '2025-11-05T00:00:00.000Z' }]);
    const earlier = fileRecords('/a/s.jsonl', [
      { msg: 'x', req: 'x' },
      { msg: 'm1', req: 'r1', ts: '2025-11-04T00:00:00.000Z' },
      { msg: 'm1', req: 'r1', ts: '2025-11-06T00:00:00.000Z' },
    ]);
    const kept = dedupe([...later, ...earlier]).find((r) => r.key === 'm1\u0000r1')!;
    expect([kept.file, new Date(kept.timestamp).toISOString()]).toEqual(['/a/s.jsonl', '2025-11-04T00:00:00.000Z']);
  });

  it('breaks a token tie by the larger cost', () => {
    const [a, b] = fileRecords('/a/s.jsonl', [
      { msg: 'm1', req: 'r1', input: 10, output: 5 },
      { msg: 'm1', req: 'r1', input: 5, output: 10 },
    ]);
    b!.cost = 2;
    a!.cost = 1;
    expect(dedupe([a!, b!])).toEqual([b]);
  });

  it('never merges lines without message.id', () => {
    const records = fileRecords('/a/s.jsonl', [{ msg: null }, { msg: null }]);
    expect(dedupe(records)).toHaveLength(2);
  });

  it('treats the same message under another request id as another request', () => {
    const records = fileRecords('/a/s.jsonl', [
      { msg: 'm1', req: 'r1' },
      { msg: 'm1', req: 'r2' },
    ]);
    expect(dedupe(records)).toHaveLength(2);
  });

  // ccusage claude daily's key, which the contract's daily tokens follow (monthly/session differ).
  it('keys lines without requestId by session, message id and timestamp: split lines at other instants all count', () => {
    const records = fileRecords('/a/s.jsonl', [
      { msg: 'm1', req: null, output: 2, session: 's1', ts: '2025-11-03T10:00:00.000Z' },
      { msg: 'm1', req: null, output: 70, session: 's1', ts: '2025-11-03T10:00:01.000Z' },
      { msg: 'm1', req: null, output: 40, session: 's1', ts: '2025-11-03T10:00:01.001Z' },
      { msg: 'm1', req: null, output: 9, session: 's2', ts: '2025-11-03T10:00:00.000Z' },
    ]);
    expect(dedupe(records).map((r) => r.outputTokens)).toEqual([2, 70, 40, 9]);
  });

  it('merges lines without requestId of one session, message id and timestamp, keeping the largest', () => {
    const records = fileRecords('/a/s.jsonl', [
      { msg: 'm1', req: null, output: 2, session: 's1', ts: '2025-11-03T10:00:00.000Z' },
      { msg: 'm1', req: null, output: 70, session: 's1', ts: '2025-11-03T10:00:00.000Z' },
    ]);
    expect(dedupe(records).map((r) => r.outputTokens)).toEqual([70]);
  });

  it('compares the instant, not its spelling, as ccusage does', () => {
    const records = fileRecords('/a/s.jsonl', [
      { msg: 'm1', req: null, output: 2, ts: '2025-11-03T10:00:00.000Z' },
      { msg: 'm1', req: null, output: 3, ts: '2025-11-03T10:00:00Z' },
      { msg: 'm1', req: null, output: 70, ts: '2025-11-03T11:00:00.000+01:00' },
    ]);
    expect(dedupe(records).map((r) => r.outputTokens)).toEqual([70]);
  });

  it('without sessionId, takes the session from the path (file stem, or the folder of subagents/)', () => {
    const line = { msg: 'm1', req: null, session: null, ts: '2025-11-03T10:00:00.000Z' } as const;
    const records = [
      ...fileRecords('/p/abc.jsonl', [{ ...line, output: 2 }]),
      ...fileRecords('/q/abc.jsonl', [{ ...line, output: 3 }]),
      ...fileRecords('/p/abc/subagents/agent-1.jsonl', [{ ...line, output: 70 }]),
      ...fileRecords('/p/other.jsonl', [{ ...line, output: 9 }]),
    ];
    expect(dedupe(records).map((r) => r.outputTokens)).toEqual([70, 9]);
  });

  it('keeps the message id + requestId rule for lines with both ids, and never merges them with lines without', () => {
    const records = fileRecords('/a/s.jsonl', [
      { msg: 'm1', req: 'r1', output: 2, ts: '2025-11-03T10:00:00.000Z' },
      { msg: 'm1', req: 'r1', output: 70, ts: '2025-11-03T10:00:05.000Z' },
      { msg: 'm1', req: null, output: 9, ts: '2025-11-03T10:00:00.000Z' },
    ]);
    expect(dedupe(records).map((r) => r.outputTokens)).toEqual([70, 9]);
  });

  it('gives the same winner whatever order records arrive in', () => {
    const records = fileRecords('/a/s.jsonl', [
      { msg: 'm1', req: 'r1', output: 4 },
      { msg: 'm1', req: 'r1', output: 40, sidechain: true },
      { msg: 'm1', req: 'r1', output: 40 },
      { msg: 'm1', req: 'r1', output: 40 },
    ]);
    const forward = new DedupIndex();
    forward.addAll(records);
    const backward = new DedupIndex();
    backward.addAll([...records].reverse());
    expect(backward.records()).toEqual(forward.records());
    expect(forward.records()[0]).toBe(records[2]);
  });
});
