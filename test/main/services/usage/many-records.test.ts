import { describe, expect, it } from 'vitest';
import { Pricing } from '../../../../main/services/usage/pricing.js';
import type { FileRead } from '../../../../main/services/usage/scan-file.js';
import { readsOfReply } from '../../../../main/services/usage/read-pack.js';
import { packReply } from '../../../../main/services/usage/scan-worker.js';
import { UsageStore } from '../../../../main/services/usage/usage-store.js';
import { usageRecord } from '../../../fixtures/usage/lines.js';

// One SQLite store (opencode.db) is one file with every message of the agent: 253 485 requests in
// the 1 GiB bench corpus, where `push(...records)` threw "Maximum call stack size exceeded" and
// the whole scan failed.
const COUNT = 250_000;
const file = '/data/opencode/opencode.db';

function storeRead(): FileRead {
  const records = Array.from({ length: COUNT }, (_, i) =>
    usageRecord({ agent: 'opencode', file, key: i % 2 === 0 ? `m${i}` : null, outputTokens: 1, offset: i, timestamp: Date.UTC(2026, 0, 1) + i * 1000 }),
  );
  return { path: file, size: COUNT, mtimeMs: 1, ino: 1, dev: 1, nlink: 1, start: 0, offset: 0, records, tail: [], malformed: 0, tailMalformed: 0, oversized: 0, fingerprint: '' };
}

describe('a file with a quarter of a million requests', () => {
  it('is applied to the store, every request kept', () => {
    const store = new UsageStore(new Pricing());
    store.apply([storeRead()], []);
    expect(store.kept()).toHaveLength(COUNT);
    expect(store.kept().reduce((n, r) => n + r.outputTokens, 0)).toBe(COUNT);
  });

  it('is packed for the trip back from a scan worker, and unpacks to the same requests', () => {
    const read = storeRead();
    const reply = packReply(7, [read], [], []);
    const [again, ...more] = readsOfReply(reply.reads, reply.packed);
    expect(more).toEqual([]);
    expect(again).toMatchObject({ path: file, size: COUNT });
    expect(again!.records).toHaveLength(COUNT);
    expect(again!.records[COUNT - 1]).toEqual(read.records[COUNT - 1]);
  });
});
