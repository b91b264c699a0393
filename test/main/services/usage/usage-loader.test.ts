import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { silentLogger } from '../../../../main/infra/logger.js';
import { codex } from '../../../../main/services/usage/agents/codex.js';
import { Pricing } from '../../../../main/services/usage/pricing.js';
import type { ScanPool, SizedTask, TaskFeed } from '../../../../main/services/usage/scan-pool.js';
import type { FileRead } from '../../../../main/services/usage/scan-file.js';
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
    // Each batch's reads go to `onReads` as they are read, as the real pool does.
    readFeed: async (feed: TaskFeed, _done: unknown, onReads?: (reads: FileRead[]) => void) => {
      calls.push('feed');
      let n = 0;
      const result: ReturnType<typeof readAll> = { reads: [], missing: [], failed: [] };
      for (let batch = await feed.take(); batch.length > 0; batch = await feed.take()) {
        n += batch.length;
        const one = readAll(batch, pricing);
        result.missing.push(...one.missing);
        result.failed.push(...one.failed);
        if (onReads) onReads(one.reads);
        else result.reads.push(...one.reads);
      }
      calls.push(`read ${n}`);
      return result;
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

  it('stages a cold scan as the threads answer and puts it in the store only when it is complete, in path order', async () => {
    const agentDir = path.join(dir, 'staged');
    const project = path.join(agentDir, 'projects', 'p');
    await fs.mkdir(project, { recursive: true });
    // The same request in two files (the larger copy wins wherever it is read), plus one per file.
    const write = (name: string, lines: string[]) => fs.writeFile(path.join(project, name), lines.map((l) => `${l}\n`).join(''));
    await write('a.jsonl', [assistantLine({ msg: 'dup', req: 'dup', output: 2 }), assistantLine({ msg: 'a', req: 'a', output: 1 })]);
    await write('b.jsonl', [assistantLine({ msg: 'dup', req: 'dup', output: 9 }), assistantLine({ msg: 'b', req: 'b', output: 3 }), assistantLine({ msg: 'b2', req: 'b2', output: 4 })]);
    await write('c.jsonl', [assistantLine({ msg: 'c', req: 'c', output: 5 })]);
    const store = new UsageStore(pricing);
    const storeSizes: number[] = [];
    const { pool } = fakePool();
    const readFeed = pool.readFeed.bind(pool);
    // Answers arrive as the threads finish them, largest file first: check the store stays empty meanwhile.
    pool.readFeed = (feed, done, onReads) => readFeed(feed, done, (reads) => {
      storeSizes.push(store.files.size);
      onReads!([...reads].reverse());
    });
    const loader = new UsageLoader({ agentDir, instancesDir: path.join(dir, 'none'), store, pricing, logger: silentLogger, pool, workerThresholdBytes: 1 });
    expect(await loader.scan()).toMatchObject({ files: 3, filesRead: 3, usedWorkers: true });
    expect(storeSizes.length).toBeGreaterThan(0);
    expect(storeSizes.every((n) => n === 0)).toBe(true);
    expect([...store.files.keys()].map((f) => path.basename(f))).toEqual(['a.jsonl', 'b.jsonl', 'c.jsonl']);

    // The same answer as a scan read in this thread, record for record.
    const inline = new UsageStore(pricing);
    await new UsageLoader({ agentDir, instancesDir: path.join(dir, 'none'), store: inline, pricing, logger: silentLogger, pool: null, workerThresholdBytes: 1 }).scan();
    const outputs = (s: UsageStore) => s.kept().map((r) => [path.basename(r.file), r.key, r.outputTokens]);
    expect(outputs(store)).toEqual(outputs(inline));
    expect(outputs(store)).toEqual([
      ['a.jsonl', 'a\u0000a', 1],
      ['b.jsonl', 'dup\u0000dup', 9],
      ['b.jsonl', 'b\u0000b', 3],
      ['b.jsonl', 'b2\u0000b2', 4],
      ['c.jsonl', 'c\u0000c', 5],
    ]);
    // An append after it merges into the staged index.
    await fs.appendFile(path.join(project, 'c.jsonl'), `${assistantLine({ msg: 'dup', req: 'dup', output: 20 })}\n`);
    await loader.scan();
    expect(outputs(store).filter(([, key]) => key === 'dup\u0000dup')).toEqual([['c.jsonl', 'dup\u0000dup', 20]]);
  });

  it('a staged cold scan remembers the flags each agent file was read with: the next scan reads nothing again', async () => {
    const home = path.join(dir, 'codex-home');
    const sessions = path.join(home, 'sessions', '2026', '01', '09');
    await fs.mkdir(sessions, { recursive: true });
    await fs.writeFile(path.join(home, 'config.toml'), 'service_tier = "fast"\n');
    const turn = { timestamp: '2026-01-09T10:00:00.000Z', type: 'event_msg', payload: { type: 'token_count', info: { last_token_usage: { input_tokens: 100, cached_input_tokens: 0, output_tokens: 1, reasoning_output_tokens: 0, total_tokens: 101 } } } };
    await fs.writeFile(path.join(sessions, 'rollout-a.jsonl'), `${JSON.stringify({ timestamp: '2026-01-09T10:00:00.000Z', type: 'turn_context', payload: { model: 'gpt-5.4' } })}\n${JSON.stringify(turn)}\n`);
    const store = new UsageStore(pricing);
    const { pool, calls } = fakePool();
    const places = async () => ({ claude: false, agents: [{ loader: codex, dirs: [home] }] });
    const loader = new UsageLoader({ agentDir: path.join(dir, 'none'), instancesDir: path.join(dir, 'none'), store, pricing, logger: silentLogger, pool, workerThresholdBytes: 1, places });
    expect(await loader.scan()).toMatchObject({ filesRead: 1, usedWorkers: true });
    expect(calls).toContain('feed'); // read through the threads' staged path
    // codex lines have no de-duplication key: the file's kept list is its records array itself
    const [only] = [...store.files.values()];
    expect(store.keptGroups()[0]).toBe(only!.records);
    expect(only!.records).toHaveLength(1);
    expect(await loader.scan()).toMatchObject({ filesRead: 0 });
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
