import { describe, expect, it } from 'vitest';
import { TaskFeed } from '../../../../main/services/usage/scan-pool.js';

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
