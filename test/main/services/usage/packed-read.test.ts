import { describe, expect, it } from 'vitest';
import { ColdStage } from '../../../../main/services/usage/cold-stage.js';
import { parseCache, serializeCache } from '../../../../main/services/usage/disk-cache.js';
import { PackedRead } from '../../../../main/services/usage/packed-read.js';
import { Pricing } from '../../../../main/services/usage/pricing.js';
import { readsOfReply } from '../../../../main/services/usage/read-pack.js';
import type { FileRead } from '../../../../main/services/usage/scan-file.js';
import { packReply } from '../../../../main/services/usage/scan-worker.js';
import type { UsageRecord } from '../../../../main/services/usage/types.js';
import { UsageStore } from '../../../../main/services/usage/usage-store.js';
import { UsageViews } from '../../../../main/services/usage/usage-views.js';
import { usageRecord } from '../../../fixtures/usage/lines.js';
import { readFields } from '../../../fixtures/usage/read-fields.js';

const DAY = 86_400_000;
const T0 = Date.UTC(2026, 0, 10, 12);

function read(path: string, records: UsageRecord[], tail: UsageRecord[] = []): FileRead {
  return { path, size: 100, mtimeMs: 1, ino: 1, dev: 1, nlink: 1, start: 0, offset: 90, records, tail, malformed: 0, tailMalformed: 0, oversized: 0, fingerprint: 'fp' };
}

/** Codex-like files (no keys), a Claude-like one (keys, one beaten by another file's copy), a tail, an empty file. */
function reads(): FileRead[] {
  const codex = (file: string, n: number, model: string) =>
    Array.from({ length: n }, (_, i) =>
      usageRecord({ agent: 'codex', file, model, timestamp: T0 + i * 7 * 3600_000, inputTokens: 100 + i, outputTokens: i, cacheReadTokens: 3 * i, extraTokens: i % 2, cost: 0.001 * (i + 1), loggedCost: i % 3 === 0 ? 0.5 : null, sessionId: `s-${file}`, offset: i * 10 }),
    );
  const claude = (file: string, keys: string[], output: number) =>
    keys.map((key, i) => usageRecord({ agent: 'claude', file, key, timestamp: T0 + i * DAY, outputTokens: output, cost: output / 1000, offset: i * 10 }));
  return [
    read('/a/codex-1.jsonl', codex('/a/codex-1.jsonl', 40, 'gpt-5')), // with the rest, a batch the disk cache writes as it is (SMALL_SEGMENT)
    read('/a/codex-2.jsonl', codex('/a/codex-2.jsonl', 1, 'gpt-5-codex')),
    read('/b/claude-1.jsonl', claude('/b/claude-1.jsonl', ['k1', 'k2', 'k3'], 5)),
    read('/b/claude-2.jsonl', claude('/b/claude-2.jsonl', ['k2'], 50)),
    read('/c/empty.jsonl', []),
    read('/c/tail.jsonl', codex('/c/tail.jsonl', 2, 'gpt-5'), codex('/c/tail.jsonl', 1, 'gpt-5')),
  ];
}

/** The reads as a cold scan gets them from a worker's reply. */
function fromWorker(list: FileRead[]): FileRead[] {
  return readsOfReply(...(({ reads: r, packed }) => [r, packed] as const)(structuredClone(packReply(1, list, [], []))));
}

function adopted(list: FileRead[]): UsageStore {
  const stage = new ColdStage();
  stage.add(list);
  const store = new UsageStore(new Pricing());
  store.adopt(list, stage.index, stage.keepsAll, stage.keepsNone);
  return store;
}

const query = { zone: 'Asia/Tokyo', mode: 'auto' as const, since: null, until: null };

describe('a worker\'s reads whose requests have no key and no tail stay packed', () => {
  it('are read from the reply as packed, the others with their requests as objects, all as they were', () => {
    const original = reads();
    const back = fromWorker(reads());
    expect(back.map((r) => r instanceof PackedRead && r.onlyPacked)).toEqual([true, true, false, false, false, false]);
    expect(back.map(readFields)).toEqual(original.map(readFields));
  });

  it('give the same answers as the requests as objects, and a cold scan\'s daily answer and disk cache write make none of them', () => {
    const packed = fromWorker(reads());
    const lazy = adopted(packed);
    const objects = new UsageStore(new Pricing());
    objects.apply(reads(), []);
    const views = (s: UsageStore) => new UsageViews(s, new Pricing());
    for (const q of [query, { ...query, zone: 'UTC', mode: 'calculate' as const }, { ...query, agent: 'codex' }, { ...query, agent: 'claude', mode: 'display' as const }]) {
      expect(views(lazy).daily(q)).toEqual(views(objects).daily(q));
    }
    const snapshot = { lastFetch: 1, files: [...lazy.files.values()], kept: lazy.keptLists(), seenAnomalies: [] };
    const bytes = serializeCache(snapshot, { agentDir: '/a', instancesDir: '/i' }, 'p');
    expect(packed.filter((r) => r instanceof PackedRead && r.onlyPacked)).toHaveLength(2); // still only packed

    const back = parseCache(bytes, { agentDir: '/a', instancesDir: '/i' }, 'p')!;
    expect(back.kept).toEqual(objects.keptGroups());
    expect(back.files.map((f) => f.records)).toEqual(reads().map((r) => r.records));

    // After the write the store lets its packs go, but not those of reads only packed: the next
    // write takes their bytes again, making none of their requests.
    lazy.releasePacks();
    const again = serializeCache({ ...snapshot, kept: lazy.keptLists() }, { agentDir: '/a', instancesDir: '/i' }, 'p');
    expect(packed.filter((r) => r instanceof PackedRead && r.onlyPacked)).toHaveLength(2);
    expect(parseCache(again, { agentDir: '/a', instancesDir: '/i' }, 'p')!.kept).toEqual(objects.keptGroups());
  });

  it('make their requests once asked, and the store then answers from those', () => {
    const packed = fromWorker(reads());
    const store = adopted(packed);
    const views = new UsageViews(store, new Pricing());
    const before = views.daily(query);
    const codex = packed[0] as PackedRead;
    expect(codex.records).toBe(codex.records); // made once
    expect(codex.onlyPacked).toBe(false);
    expect(codex.agent).toBe('codex');
    expect(new UsageViews(store, new Pricing()).daily({ ...query, agent: 'codex' })).toEqual(new UsageViews(adopted(fromWorker(reads())), new Pricing()).daily({ ...query, agent: 'codex' }));
    expect(store.kept().filter((r) => r.file === '/a/codex-1.jsonl')).toEqual(reads()[0]!.records);
    expect(store.keptGroups()[0]).toBe(codex.records);
    expect(new UsageViews(store, new Pricing()).daily(query)).toEqual(before);
    // an append to it: merged as any file's, the packed run no longer holds
    const grown = { ...read('/a/codex-1.jsonl', [usageRecord({ agent: 'codex', file: '/a/codex-1.jsonl', timestamp: T0, outputTokens: 1000 })]), start: 90 };
    store.apply([grown], []);
    expect(store.files.get('/a/codex-1.jsonl')!.records).toHaveLength(41);
    expect(store.files.get('/a/codex-1.jsonl')!.packed).toBeUndefined();
  });

  it('given other requests, no longer claim the packed ones', () => {
    const [codex] = fromWorker(reads()) as [PackedRead];
    codex.records = [];
    expect(codex.packed).toBeUndefined();
    expect(codex.records).toEqual([]);
  });
});
