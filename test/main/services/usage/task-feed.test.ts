import { describe, expect, it } from 'vitest';
import { UNSIZED } from '../../../../main/services/usage/discover.js';
import { BATCH_FILES, TaskFeed } from '../../../../main/services/usage/scan-pool.js';

const task = (path: string, bytes: number) => ({ path, start: 0, bytes });

describe('TaskFeed (tasks handed to the scan threads while discovery walks)', () => {
  it('a take waits for tasks, each added run goes largest first, and an ended, drained feed gives an empty batch', async () => {
    const feed = new TaskFeed();
    let got: string[] | null = null;
    const first = feed.take().then((b) => (got = b.map((t) => t.path)));
    await new Promise((r) => setImmediate(r));
    expect(got).toBeNull(); // nothing added yet: it waits
    feed.add([task('/small', 1), task('/big', 100)]);
    await first;
    expect(got).toEqual(['/big', '/small']);
    const second = feed.take();
    feed.add([task('/later', 5)]);
    expect((await second).map((t) => t.path)).toEqual(['/later']);
    feed.end();
    expect(await feed.take()).toEqual([]);
    expect(() => feed.add([task('/late', 1)])).toThrow(/ended/);
  });
});

describe('TaskFeed with files of unknown size (a cold scan that did not stat them)', () => {
  it('gives sized files largest first, then the unsized in the order given, never both in one batch', async () => {
    const feed = new TaskFeed();
    feed.add([task('/u1', UNSIZED), task('/s1', 10), task('/u2', UNSIZED), task('/s2', 20)]);
    expect((await feed.take()).map((t) => t.path)).toEqual(['/s2', '/s1']);
    expect((await feed.take()).map((t) => t.path)).toEqual(['/u1', '/u2']);
  });

  it('a sized file added later (a store found after a walk) goes before the unsized files queued earlier', async () => {
    const feed = new TaskFeed();
    feed.add(Array.from({ length: BATCH_FILES + 36 }, (_, i) => task(`/walk/u${i}`, UNSIZED)));
    expect(await feed.take()).toHaveLength(BATCH_FILES);
    feed.add([task('/store/opencode.db', 500 << 20)]);
    expect((await feed.take()).map((t) => t.path)).toEqual(['/store/opencode.db']);
    expect(await feed.take()).toHaveLength(36);
  });

  it('once ended, hands the unsized out in shrinking batches, so the last ones are single files', async () => {
    const feed = new TaskFeed();
    feed.add(Array.from({ length: BATCH_FILES + 136 }, (_, i) => task(`/u${String(i).padStart(3, '0')}`, UNSIZED)));
    expect(await feed.take()).toHaveLength(BATCH_FILES); // still walking: full batches
    feed.end();
    const sizes: number[] = [];
    for (let batch = await feed.take(); batch.length > 0; batch = await feed.take()) sizes.push(batch.length);
    expect(sizes.reduce((a, b) => a + b, 0)).toBe(136);
    expect(sizes[0]).toBe(8); // a sixteenth of the 136 left
    expect(sizes.slice(-16)).toEqual(Array(16).fill(1));
    expect([...sizes].sort((a, b) => b - a)).toEqual(sizes);
  });
});

describe('TaskFeed.ready (topping up a worker without waiting)', () => {
  it('gives a batch at hand, null while empty but still walking, and [] once ended and drained', () => {
    const feed = new TaskFeed();
    expect(feed.ready()).toBeNull();
    feed.add([task('/a', 10), task('/u', UNSIZED)]);
    expect(feed.ready()!.map((t) => t.path)).toEqual(['/a']);
    expect(feed.ready()!.map((t) => t.path)).toEqual(['/u']);
    expect(feed.ready()).toBeNull();
    feed.end();
    expect(feed.ready()).toEqual([]);
  });
});
