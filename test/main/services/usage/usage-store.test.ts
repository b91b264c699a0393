import { describe, expect, it } from 'vitest';
import { dedupe } from '../../../../main/services/usage/dedupe.js';
import { parseUsageLine } from '../../../../main/services/usage/parse-line.js';
import { Pricing } from '../../../../main/services/usage/pricing.js';
import { toUsageRecord } from '../../../../main/services/usage/record.js';
import type { FileRead } from '../../../../main/services/usage/scan-file.js';
import type { ParsedUsage } from '../../../../main/services/usage/types.js';
import { UsageStore } from '../../../../main/services/usage/usage-store.js';
import { assistantLine, type LineOptions } from '../../../fixtures/usage/lines.js';

/** A read of `lines` from `start` (0 = the whole file), as the scanner reports it. */
function read(file: string, lines: LineOptions[], start = 0): FileRead {
  let offset = start;
  const records = lines.map((o) => {
    const text = assistantLine(o);
    const record = toUsageRecord(parseUsageLine(text) as ParsedUsage, file, offset);
    offset += text.length + 1;
    return record;
  });
  return { path: file, size: offset, mtimeMs: offset, ino: 1, dev: 1, nlink: 1, start, offset, records, tail: [], malformed: 0, tailMalformed: 0, oversized: 0, fingerprint: '' };
}

const outputs = (store: UsageStore) => store.kept().map((r) => `${r.file}:${r.outputTokens}`);

describe('UsageStore kept set after appends', () => {
  it('drops a kept request of an untouched file when an append to another file beats it', () => {
    const store = new UsageStore(new Pricing());
    const a = read('/a.jsonl', [{ msg: 'm', req: 'r', output: 5 }, { msg: 'x', req: 'r', output: 1 }]);
    const b = read('/b.jsonl', [{ msg: 'y', req: 'r', output: 2 }]);
    store.apply([a, b], []);
    expect(outputs(store)).toEqual(['/a.jsonl:5', '/a.jsonl:1', '/b.jsonl:2']);
    // b grows: the same request as a's first line, with more tokens, and a new one
    const grown = read('/b.jsonl', [{ msg: 'm', req: 'r', output: 9 }, { msg: 'z', req: 'r', output: 3 }], b.offset);
    store.apply([grown], []);
    expect(outputs(store)).toEqual(['/a.jsonl:1', '/b.jsonl:2', '/b.jsonl:9', '/b.jsonl:3']);
    // the same set a full de-duplication of every file's requests gives
    const all = [...store.files.values()].flatMap((f) => [...f.records, ...f.tail]);
    expect(new Set(store.kept())).toEqual(new Set(dedupe(all)));
  });

  it('keeps the earlier winner when the appended duplicate loses', () => {
    const store = new UsageStore(new Pricing());
    const a = read('/a.jsonl', [{ msg: 'm', req: 'r', output: 5 }]);
    const b = read('/b.jsonl', [{ msg: 'y', req: 'r', output: 2 }]);
    store.apply([a, b], []);
    expect(outputs(store)).toEqual(['/a.jsonl:5', '/b.jsonl:2']);
    store.apply([read('/b.jsonl', [{ msg: 'm', req: 'r', output: 4 }], b.offset)], []);
    expect(outputs(store)).toEqual(['/a.jsonl:5', '/b.jsonl:2']);
  });
});

describe('UsageStore after a restore from the disk cache', () => {
  const states = () => {
    const a = read('/a.jsonl', [{ msg: 'm', req: 'r', output: 5 }, { msg: 'x', req: 'r', output: 1 }]);
    const b = read('/b.jsonl', [{ msg: 'm', req: 'r', output: 2 }]);
    return [a, b].map(({ start: _start, ...f }) => ({ ...f, flagsKey: '' }));
  };

  it('builds the skipped index when warmed, keeping the same kept lists when the cache was right', async () => {
    const store = new UsageStore(new Pricing());
    const files = states();
    store.restore(files, [[files[0]!.records[0]!, files[0]!.records[1]!], []]);
    const groups = store.keptGroups();
    const version = store.version;
    await store.warmIndex();
    expect(store.keptGroups()).toEqual(groups);
    store.keptGroups().forEach((g, i) => expect(g).toBe(groups[i]));
    expect(store.version).toBe(version);
    // the index is there: an append merges into it
    store.apply([read('/b.jsonl', [{ msg: 'm', req: 'r', output: 9 }], files[1]!.offset)], []);
    expect(outputs(store)).toEqual(['/a.jsonl:1', '/b.jsonl:9']);
  });

  it('warms in steps: reads in between see the restored lists, a change in between stops it', async () => {
    const store = new UsageStore(new Pricing());
    const files = states();
    store.restore(files, [[files[0]!.records[1]!], [files[1]!.records[0]!]]); // wrong, as above
    const restored = outputs(store);
    const seen: string[][] = [];
    await store.warmIndex(async () => void seen.push(outputs(store)), 1);
    expect(seen.length).toBeGreaterThanOrEqual(2);
    for (const s of seen) expect(s).toEqual(restored); // nothing half-corrected shows
    expect(outputs(store)).toEqual(['/a.jsonl:5', '/a.jsonl:1']);

    const other = new UsageStore(new Pricing());
    other.restore(files, [[files[0]!.records[1]!], [files[1]!.records[0]!]]);
    await other.warmIndex(async () => other.clear(), 1);
    expect(other.keptGroups()).toEqual([]); // the clear wins; nothing of the old files comes back
  });

  it('corrects a kept set the cache got wrong when warmed', async () => {
    const store = new UsageStore(new Pricing());
    const files = states();
    store.restore(files, [[files[0]!.records[1]!], [files[1]!.records[0]!]]); // b's 2 does not beat a's 5
    const version = store.version;
    await store.warmIndex();
    expect(outputs(store)).toEqual(['/a.jsonl:5', '/a.jsonl:1']);
    expect(store.version).toBe(version + 1);
  });

  it('keeps its per-file lists right through appends, new files and removals read in between', () => {
    const store = new UsageStore(new Pricing());
    store.apply([read('/a.jsonl', [{ msg: 'm', req: 'r', output: 5 }]), read('/b.jsonl', [{ msg: 'y', req: 'r', output: 2 }])], []);
    expect(outputs(store)).toEqual(['/a.jsonl:5', '/b.jsonl:2']);
    store.apply([read('/c.jsonl', [{ msg: 'm', req: 'r', output: 7 }])], []); // a new file beats a's request
    expect(outputs(store)).toEqual(['/b.jsonl:2', '/c.jsonl:7']);
    store.apply([], ['/c.jsonl']); // and goes: a's request is kept again
    expect(outputs(store)).toEqual(['/a.jsonl:5', '/b.jsonl:2']);
    const b = store.files.get('/b.jsonl')!;
    store.apply([read('/b.jsonl', [{ msg: 'n', req: 'r', output: 1 }], b.offset)], []);
    expect(outputs(store)).toEqual(['/a.jsonl:5', '/b.jsonl:2', '/b.jsonl:1']);
    expect(store.keptGroups().map((g) => g.length)).toEqual([1, 2]);
  });
});

describe('UsageStore kept lists', () => {
  it("a file that keeps every request shares its records array as its kept list; one that loses a request gets its own", () => {
    const store = new UsageStore(new Pricing());
    const a = read('/a.jsonl', [{ msg: null, output: 1 }, { msg: null, output: 2 }]); // no keys: always kept
    const b = read('/b.jsonl', [{ msg: 'm', req: 'r', output: 5 }]);
    const c = read('/c.jsonl', [{ msg: 'm', req: 'r', output: 1 }, { msg: 'n', req: 'r', output: 3 }]);
    store.apply([a, b, c], []);
    const [ka, kb, kc] = store.keptGroups();
    expect(ka).toBe(store.files.get('/a.jsonl')!.records);
    expect(kb).toBe(store.files.get('/b.jsonl')!.records);
    expect(kc).not.toBe(store.files.get('/c.jsonl')!.records);
    expect(kc!.map((r) => r.outputTokens)).toEqual([3]);
    // an append gives the file a new records array; the shared one is never changed in place
    const before = [...ka!];
    store.apply([read('/a.jsonl', [{ msg: null, output: 7 }], a.offset)], []);
    expect(ka).toEqual(before);
    expect(store.keptGroups()[0]!.map((r) => r.outputTokens)).toEqual([1, 2, 7]);
  });
});
