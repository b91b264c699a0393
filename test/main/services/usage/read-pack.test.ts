import { describe, expect, it } from 'vitest';
import { packReads, readsOfReply } from '../../../../main/services/usage/read-pack.js';
import type { FileRead } from '../../../../main/services/usage/scan-file.js';
import { packReply } from '../../../../main/services/usage/scan-worker.js';
import { NUM, REF } from '../../../../main/services/usage/record-pack.js';
import { readFields } from '../../../fixtures/usage/read-fields.js';
import { usageRecord } from '../../../fixtures/usage/lines.js';

const read = (path: string, o: Partial<FileRead>): FileRead => ({
  path,
  size: 0,
  mtimeMs: 0,
  ino: 0,
  dev: 0,
  nlink: 1,
  start: 0,
  offset: 0,
  records: [],
  tail: [],
  malformed: 0,
  tailMalformed: 0,
  oversized: 0,
  fingerprint: '',
  ...o,
});

describe('reads packed for the trip back from a scan worker', () => {
  it('unpack to the same reads, each with its own records and tail, through a structured clone', () => {
    const rec = (file: string, offset: number) => usageRecord({ file, offset, outputTokens: offset + 1 });
    const reads = [
      read('/a/one.jsonl', { size: 123456789012, mtimeMs: 1770233551253.4567, ino: 2 ** 52 + 3, start: 10, offset: 99, malformed: 2, tailMalformed: 1, fingerprint: 'f00d:12', records: [rec('/a/one.jsonl', 0), rec('/a/one.jsonl', 40)], tail: [rec('/a/one.jsonl', 99)] }),
      read('/a/empty.json', { oversized: 1 }),
      read('/b/ünï/msg_1.json', { size: 300, mtimeMs: 1, ino: 77, records: [rec('/b/ünï/msg_1.json', 0)] }),
    ];
    const reply = structuredClone(packReply(3, reads, ['/gone'], [{ path: '/bad', message: 'EISDIR' }]));
    expect(readsOfReply(reply.reads, reply.packed).map(readFields)).toEqual(reads.map(readFields));
    expect(reply.missing).toEqual(['/gone']);
  });

  it('hold every request of a reply past the packer\'s first room, in buffers of exactly their size', () => {
    // The packer starts with room for 1 024 requests and grows: 3 000 take it through two growths.
    const records = Array.from({ length: 3000 }, (_, i) => usageRecord({ file: `/a/${i % 7}.jsonl`, key: i % 3 === 0 ? null : `k${i}`, model: `m${i % 5}`, offset: i, outputTokens: i }));
    const reads = Array.from({ length: 7 }, (_, f) => read(`/a/${f}.jsonl`, { records: records.filter((r) => r.file === `/a/${f}.jsonl`) }));
    const reply = packReply(1, reads, [], []);
    expect(readsOfReply(reply.reads, reply.packed).map(readFields)).toEqual(reads.map(readFields));
    const { packed } = reply;
    expect([packed.numbers.buffer.byteLength, packed.refs.buffer.byteLength, packed.keyLengths.buffer.byteLength]).toEqual([3000 * NUM * 8, 3000 * REF * 4, 3000 * 4]);
  });

  it('refuse arrays that do not fit together', () => {
    const packed = packReads([read('/a', { records: [usageRecord({})] })]);
    const none = packReply(1, [], [], []).packed;
    expect(() => readsOfReply(packed, none)).toThrow('do not fit');
    expect(() => readsOfReply({ ...packed, paths: [] }, none)).toThrow('do not fit');
  });
});
