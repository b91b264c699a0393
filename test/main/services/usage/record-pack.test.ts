import { describe, expect, it } from 'vitest';
import { RecordPacker, unpackRecords } from '../../../../main/services/usage/record-pack.js';
import { usageRecord } from '../../../fixtures/usage/lines.js';

const records = (from: number, count: number) =>
  Array.from({ length: count }, (_, i) => usageRecord({ file: `/a/${from + i}.jsonl`, key: (from + i) % 2 === 0 ? `k${from + i}` : null, model: `m${from + i}`, offset: from + i, outputTokens: from + i }));

function pack(packer: RecordPacker, list: ReturnType<typeof records>) {
  for (const r of list) packer.add(r);
  return packer.take();
}

describe('a record packer used for one set after another (a scan worker\'s replies)', () => {
  it('hands each set over whole, and a later set never writes into an earlier one', () => {
    const packer = new RecordPacker(16);
    const [a, b, c, d] = [records(0, 20), records(100, 3), records(200, 32), records(300, 1)];
    const first = pack(packer, a); // grown to room for 32: copies of 20
    const second = pack(packer, b);
    const third = pack(packer, c); // fills the 32 exactly: those very arrays
    const fourth = pack(packer, d);
    expect([first, second, third, fourth].map(unpackRecords)).toEqual([a, b, c, d]);
    expect(third.strings).not.toBe(fourth.strings);
  });
});
