import fs from 'node:fs/promises';
import fsSync from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { silentLogger } from '../../../../main/infra/logger.js';
import { execFileSync } from 'node:child_process';
import { codex } from '../../../../main/services/usage/agents/codex.js';
import { copilot } from '../../../../main/services/usage/agents/copilot.js';
import { opencode } from '../../../../main/services/usage/agents/opencode.js';
import { Pricing } from '../../../../main/services/usage/pricing.js';
import { ScanPool, TaskFeed, type Progressed } from '../../../../main/services/usage/scan-pool.js';
import type { FileRead } from '../../../../main/services/usage/scan-file.js';
import { newProgress, UsageLoader, type AgentPlaces, type ScanProgress } from '../../../../main/services/usage/usage-loader.js';
import { UsageStore } from '../../../../main/services/usage/usage-store.js';
import { assistantLine } from '../../../fixtures/usage/lines.js';

// A cold scan (nothing read, scan threads) stats only the files it finds before the threads read;
// the rest are read without a stat (UNSIZED), their reads telling size, mtime and inode.

let dir: string;
beforeEach(async () => {
  dir = await fs.mkdtemp(path.join(os.tmpdir(), 'switchboard-cold-'));
});
afterEach(() => fs.rm(dir, { recursive: true, force: true }));

const pricing = new Pricing();
/** No message id: never merged by de-duplication, so a file read twice would count twice. */
const line = (output: number) => `${assistantLine({ msg: null, req: null, output })}\n`;

async function write(rel: string, text: string): Promise<string> {
  const file = path.join(dir, rel);
  await fs.mkdir(path.dirname(file), { recursive: true });
  await fs.writeFile(file, text);
  return file;
}

/** Threads start at the first byte found: every file after the first is found without a stat. */
function coldLoader(places?: () => Promise<AgentPlaces>) {
  const store = new UsageStore(pricing);
  const loader = new UsageLoader({
    agentDir: path.join(dir, 'agent'),
    instancesDir: path.join(dir, 'instances'),
    store,
    pricing,
    logger: silentLogger,
    pool: new ScanPool(2),
    workerThresholdBytes: 1,
    places,
  });
  return { loader, store };
}

const outputs = (store: UsageStore) => store.kept().reduce((sum, r) => sum + r.outputTokens, 0);

describe('a cold scan without a stat per file', () => {
  it('reads a file found by two hard links once, keeping the first in path order', async () => {
    await write('agent/projects/a/first.jsonl', line(1));
    const orig = await write('agent/projects/p/orig.jsonl', line(100));
    await fs.link(orig, path.join(dir, 'agent/projects/p/hard.jsonl'));
    await write('agent/projects/p/zz.jsonl', line(10_000));
    const { loader, store } = coldLoader();
    const report = await loader.scan();
    expect(report).toMatchObject({ files: 3, filesRead: 3, usedWorkers: true });
    expect([...store.files.keys()].map((p) => path.relative(path.join(dir, 'agent/projects'), p))).toEqual(['a/first.jsonl', 'p/hard.jsonl', 'p/zz.jsonl']);
    expect(outputs(store)).toBe(10_101);
    expect(loader.lastFound?.get('claude')).toBe(3);
  });

  it('reads a file found through a link and directly once, with no hard link to tell (the link was stat\'ed)', async () => {
    await write('agent/projects/a/first.jsonl', line(1));
    const target = await write('agent/projects/q/target.jsonl', line(100));
    await fs.symlink(target, path.join(dir, 'agent/projects/q/link.jsonl'));
    const { loader, store } = coldLoader();
    expect(await loader.scan()).toMatchObject({ files: 2, filesRead: 2, usedWorkers: true });
    expect([...store.files.keys()].map((p) => path.relative(path.join(dir, 'agent/projects'), p))).toEqual(['a/first.jsonl', 'q/link.jsonl']);
    expect(outputs(store)).toBe(101);
  });

  it('takes a file gone between its listing and its read off the files found, and reads the rest', async () => {
    await write('agent/projects/a/first.jsonl', line(1));
    await write('codex/sessions/keep.jsonl', '');
    const gone = await write('codex/sessions/gone.jsonl', '');
    // The listing has shown the file when the loader asks whether it is one the agent reads.
    const vanishing = { ...codex, accepts: (f: string) => (f === gone && fsSync.rmSync(f) === undefined) || codex.accepts(f) };
    const { loader, store } = coldLoader(async () => ({ claude: true, agents: [{ loader: vanishing, dirs: [path.join(dir, 'codex')] }] }));
    const report = await loader.scan();
    expect(report).toMatchObject({ files: 2, filesRead: 2, usedWorkers: true });
    expect([...store.files.keys()].map((p) => path.basename(p))).toEqual(['first.jsonl', 'keep.jsonl']);
    expect(Object.fromEntries(loader.lastFound ?? [])).toMatchObject({ claude: 1, codex: 1 });
    expect(outputs(store)).toBe(1);
  });

  it('reports progress whose byte total, estimated while sizes are unknown, ends exact', async () => {
    const sizes: number[] = [];
    for (let i = 0; i < 40; i++) {
      const text = line(i + 1).repeat(1 + ((i * 7) % 13));
      sizes.push(Buffer.byteLength(text));
      await write(`agent/projects/p${i % 4}/s${i}.jsonl`, text);
    }
    const total = sizes.reduce((a, b) => a + b, 0);
    const { loader } = coldLoader();
    const progress = newProgress();
    const seen: ScanProgress[] = [];
    let ended = false;
    const scan = loader.scan(progress).finally(() => (ended = true));
    while (!ended) {
      seen.push({ ...progress });
      await new Promise((r) => setImmediate(r));
    }
    expect(await scan).toMatchObject({ files: 40, usedWorkers: true, bytesRead: total });
    expect(progress).toEqual({ filesDone: 40, filesTotal: 40, bytesDone: total, bytesTotal: total });
    for (const p of seen) {
      expect(p.filesDone).toBeLessThanOrEqual(p.filesTotal);
      expect(p.bytesDone).toBeLessThanOrEqual(p.bytesTotal);
    }
    expect(seen.some((p) => p.filesTotal > 0 && p.bytesTotal > 0)).toBe(true);
  });

  it('stays in this thread with few small files, every one of them stat\'ed (exact byte total before any read)', async () => {
    const a = await write('agent/projects/p/a.jsonl', line(1));
    const b = await write('agent/projects/p/b.jsonl', line(2));
    const total = (await fs.stat(a)).size + (await fs.stat(b)).size;
    const store = new UsageStore(pricing);
    let started = 0;
    const pool = new ScanPool(2);
    pool.start = () => {
      started++;
      return [];
    };
    const loader = new UsageLoader({ agentDir: path.join(dir, 'agent'), instancesDir: path.join(dir, 'instances'), store, pricing, logger: silentLogger, pool, workerThresholdBytes: 64 << 20 });
    const progress = newProgress();
    const totals: number[] = [];
    let ended = false;
    const scan = loader.scan(progress).finally(() => (ended = true));
    while (!ended) {
      if (progress.filesTotal === 2) totals.push(progress.bytesTotal);
      await new Promise((r) => setImmediate(r));
    }
    expect(await scan).toMatchObject({ files: 2, filesRead: 2, usedWorkers: false, bytesRead: total });
    expect(started).toBe(0);
    expect(totals.length).toBeGreaterThan(0);
    expect(new Set(totals)).toEqual(new Set([total]));
    expect(outputs(store)).toBe(3);
  });

  it('gives the threads an agent\'s store before the files of any walk (the longest read starts first)', async () => {
    await write('agent/projects/a/first.jsonl', line(1));
    const db = path.join(dir, 'oc', 'opencode.db');
    await fs.mkdir(path.dirname(db), { recursive: true });
    const data = JSON.stringify({ role: 'assistant', modelID: 'claude-sonnet-4-5', providerID: 'anthropic', time: { created: Date.UTC(2026, 0, 2) }, tokens: { input: 7, output: 3, reasoning: 0, cache: { read: 0, write: 0 } } });
    execFileSync('sqlite3', [db], { input: `CREATE TABLE message (id TEXT PRIMARY KEY, session_id TEXT, data TEXT);\nINSERT INTO message VALUES ('msg_db', 'ses_1', '${data}');\n`, stdio: ['pipe', 'ignore', 'pipe'] });
    for (let i = 0; i < 3; i++) await write(`oc/storage/message/ses_2/msg_${i}.json`, JSON.stringify({ id: `msg_f${i}`, sessionID: 'ses_2', ...JSON.parse(data) }));
    /** Records the paths of each batch the threads are given, in order. */
    class RecordingPool extends ScanPool {
      readonly batches: string[][] = [];
      override readFeed(feed: TaskFeed, done?: Progressed, onReads?: (reads: FileRead[]) => void) {
        const ready = feed.ready.bind(feed);
        const take = feed.take.bind(feed);
        feed.ready = () => {
          const batch = ready();
          if (batch !== null && batch.length > 0) this.batches.push(batch.map((t) => t.path));
          return batch;
        };
        feed.take = async () => {
          const batch = await take();
          if (batch.length > 0) this.batches.push(batch.map((t) => t.path));
          return batch;
        };
        return super.readFeed(feed, done, onReads);
      }
    }
    const pool = new RecordingPool(2);
    const store = new UsageStore(pricing);
    const places = async (): Promise<AgentPlaces> => ({ claude: true, agents: [{ loader: opencode, dirs: [path.join(dir, 'oc')] }] });
    const loader = new UsageLoader({ agentDir: path.join(dir, 'agent'), instancesDir: path.join(dir, 'instances'), store, pricing, logger: silentLogger, pool, workerThresholdBytes: 1, places });
    expect(await loader.scan()).toMatchObject({ files: 5, filesRead: 5, usedWorkers: true });
    expect(pool.batches[0]).toEqual([db]);
    expect(pool.batches.flat().sort()).toEqual([...store.files.keys()].sort());
    expect(store.kept().filter((r) => r.agent === 'opencode').reduce((sum, r) => sum + r.inputTokens, 0)).toBe(4 * 7);
  });

  it('leaves a named file that another source lists too to that source (read once, as the first source reads it)', async () => {
    await write('agent/projects/a/first.jsonl', line(1));
    // Copilot's exporter file put inside Claude's projects: Claude's walk lists it first.
    const shared = await write('agent/projects/a/otel.jsonl', line(100));
    const places = async (): Promise<AgentPlaces> => ({ claude: true, agents: [{ loader: copilot, dirs: [shared] }] });
    const { loader, store } = coldLoader(places);
    expect(await loader.scan()).toMatchObject({ files: 2, filesRead: 2, usedWorkers: true });
    expect(Object.fromEntries(loader.lastFound ?? [])).toMatchObject({ claude: 2, copilot: 0 });
    expect(store.files.get(shared)?.records.map((r) => r.agent)).toEqual(['claude']);
    expect(outputs(store)).toBe(101);
  });
});
