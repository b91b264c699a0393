import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { silentLogger } from '../../../../main/infra/logger.js';
import { Pricing } from '../../../../main/services/usage/pricing.js';
import type { ScanPool, SizedTask, TaskFeed } from '../../../../main/services/usage/scan-pool.js';
import { readAll } from '../../../../main/services/usage/scan-worker.js';
import { UsageLoader } from '../../../../main/services/usage/usage-loader.js';
import { UsageStore } from '../../../../main/services/usage/usage-store.js';
import { assistantLine } from '../../../fixtures/usage/lines.js';

let dir: string;
beforeEach(async () => {
  dir = await fs.mkdtemp(path.join(os.tmpdir(), 'switchboard-loader-'));
});
afterEach(() => fs.rm(dir, { recursive: true, force: true }));

const pricing = new Pricing();
const LINE = `${assistantLine({ msg: 'm', req: 'r', output: 2 })}\n`;

/** A pool that reads in this thread and records what the loader asked of it. */
function fakePool() {
  const calls: string[] = [];
  const pool = {
    size: 2,
    start: () => calls.push('start'),
    close: async () => void calls.push('close'),
    read: async (tasks: readonly SizedTask[]) => {
      calls.push(`read ${tasks.length}`);
      return readAll(tasks, pricing);
    },
    // A cold scan hands the threads its files while discovery walks: 'feed' when it does, then
    // 'read n' once the feed is ended and every task taken.
    readFeed: async (feed: TaskFeed) => {
      calls.push('feed');
      const tasks: SizedTask[] = [];
      for (let batch = await feed.take(); batch.length > 0; batch = await feed.take()) tasks.push(...batch);
      calls.push(`read ${tasks.length}`);
      return readAll(tasks, pricing);
    },
  };
  return { pool: pool as unknown as ScanPool, calls };
}

async function setup(files: string[], workerThresholdBytes: number, name = 'agent') {
  const agentDir = path.join(dir, name);
  await fs.mkdir(path.join(agentDir, 'projects', 'p'), { recursive: true });
  for (const f of files) await fs.writeFile(path.join(agentDir, 'projects', 'p', f), LINE);
  const store = new UsageStore(pricing);
  const { pool, calls } = fakePool();
  const loader = new UsageLoader({ agentDir, instancesDir: path.join(dir, 'instances'), store, pricing, logger: silentLogger, pool, workerThresholdBytes });
  return { loader, calls, store, agentDir };
}

describe('UsageLoader and the scan threads', () => {
  it('starts them while discovery walks, as soon as the unread bytes found pass the threshold', async () => {
    const { loader, calls, store } = await setup(['a.jsonl', 'b.jsonl', 'c.jsonl'], 2 * LINE.length);
    expect(await loader.scan()).toMatchObject({ files: 3, filesRead: 3, usedWorkers: true });
    // started at the second file found; a cold scan hands them its files from then on, while the
    // walk goes on. The third file, found once they read, is not stat'ed (its read tells its size)
    // and asks nothing.
    expect(calls).toEqual(['start', 'feed', 'read 3']);
    expect(store.kept()).toHaveLength(1);
  });

  it('does not start them for files it has read already, nor for a scan below the threshold', async () => {
    const { loader, calls } = await setup(['a.jsonl', 'b.jsonl', 'c.jsonl'], 2 * LINE.length);
    await loader.scan();
    calls.length = 0;
    expect(await loader.scan()).toMatchObject({ filesRead: 0, usedWorkers: false });
    expect(calls).not.toContain('start');

    const small = await setup(['a.jsonl'], 2 * LINE.length, 'small');
    expect(await small.loader.scan()).toMatchObject({ filesRead: 1, usedWorkers: false });
    expect(small.calls).not.toContain('start');
  });

  it('stops threads it started early when discovery then fails', async () => {
    const { loader, calls } = await setup(['a.jsonl'], 1);
    await fs.mkdir(path.join(dir, 'instances'), { recursive: true });
    await fs.symlink(path.join(dir, 'instances', 'loop'), path.join(dir, 'instances', 'loop')); // stat: ELOOP
    await expect(loader.scan()).rejects.toThrow(/ELOOP/);
    // the feed the threads had is ended with nothing in it, and they are stopped
    expect(calls.filter((c) => c !== 'read 0')).toEqual(['start', 'feed', 'close']);
  });
});
