import { setImmediate as yieldToLoop } from 'node:timers/promises';
import type { Logger } from '../../infra/logger.js';
import type { Pricing } from './pricing.js';
import { findTranscripts, usageRoots, type FoundFile } from './discover.js';
import { fingerprintMatches, newScratch } from './scan-file.js';
import type { PoolResult, ScanPool, SizedTask } from './scan-pool.js';
import { readAll } from './scan-worker.js';
import type { UsageStore } from './usage-store.js';

export interface LoaderOptions {
  agentDir: string;
  instancesDir: string;
  store: UsageStore;
  /** Used by in-thread reads; scan workers load the same table (resources/prices.json). */
  pricing: Pricing;
  logger: Logger;
  /** Worker threads for big reads; null = always read in this thread. */
  pool: ScanPool | null;
  /** Reads at least this large go to the pool. */
  workerThresholdBytes: number;
}

export interface ScanReport {
  files: number;
  filesRead: number;
  bytesRead: number;
  usedWorkers: boolean;
}

/**
 * Brings the store up to date with the files on disk. Incremental: a file with the same size,
 * mtime and inode is not opened; a grown file whose bytes before the last read offset are
 * unchanged is read from that offset; anything else (shrunk, replaced, rewritten) is read whole.
 */
export class UsageLoader {
  constructor(private readonly o: LoaderOptions) {}

  async scan(): Promise<ScanReport> {
    let found: FoundFile[];
    try {
      found = await findTranscripts(usageRoots(this.o.agentDir, this.o.instancesDir), this.startPoolEarly());
    } catch (err) {
      await this.o.pool?.close(); // it may have been started early
      throw err;
    }
    const { tasks, removed } = this.plan(found);
    const bytes = tasks.reduce((sum, t) => sum + t.bytes, 0);
    const useWorkers = this.o.pool !== null && bytes >= this.o.workerThresholdBytes;
    if (!useWorkers) await this.o.pool?.close(); // started early for bytes that turned out to be known
    const result = useWorkers ? await this.readInWorkers(tasks) : await readInline(tasks, this.o.pricing);
    for (const f of result.failed) this.o.logger.warn(`usage: cannot read ${f.path}: ${f.message}`);
    // Path order whichever thread read what, so sums are added up in the same order every time.
    result.reads.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
    this.o.store.apply(result.reads, [...removed, ...result.missing.filter((p) => this.o.store.files.has(p))]);
    return { files: found.length, filesRead: result.reads.length, bytesRead: bytes, usedWorkers: result.usedWorkers };
  }

  /**
   * Starts the scan threads while discovery is still walking, once the files found so far hold
   * enough bytes this store has not read (a cold scan: after the first few dozen files), so
   * their start-up (tens of milliseconds) overlaps the rest of the walk instead of following it.
   */
  private startPoolEarly(): ((f: FoundFile) => void) | undefined {
    const pool = this.o.pool;
    if (pool === null) return undefined;
    let unread = 0;
    return (f) => {
      const known = this.o.store.files.get(f.path);
      unread += Math.max(0, f.size - (known !== undefined && known.ino === f.ino ? known.size : 0));
      if (unread >= this.o.workerThresholdBytes) pool.start();
    };
  }

  private plan(found: readonly FoundFile[]): { tasks: SizedTask[]; removed: string[] } {
    const tasks: SizedTask[] = [];
    const present = new Set<string>();
    for (const f of found) {
      present.add(f.path);
      const known = this.o.store.files.get(f.path);
      if (known && known.size === f.size && known.mtimeMs === f.mtimeMs && known.ino === f.ino) continue;
      const appended = known !== undefined && known.ino === f.ino && f.size >= known.size && fingerprintMatches(f.path, known.offset, known.fingerprint);
      const start = appended ? known.offset : 0;
      tasks.push({ path: f.path, start, bytes: f.size - start });
    }
    const removed = [...this.o.store.files.keys()].filter((p) => !present.has(p));
    return { tasks, removed };
  }

  private async readInWorkers(tasks: SizedTask[]): Promise<ReadResult> {
    try {
      return { ...(await this.o.pool!.read(tasks)), usedWorkers: true };
    } catch (err) {
      this.o.logger.warn(`usage: scan workers failed (${err instanceof Error ? err.message : String(err)}); reading in the main thread`);
      return readInline(tasks, this.o.pricing);
    }
  }
}

type ReadResult = PoolResult & { usedWorkers: boolean };

/** Small reads stay in this thread, yielding between files so requests keep flowing. */
async function readInline(tasks: readonly SizedTask[], pricing: Pricing): Promise<ReadResult> {
  const scratch = newScratch();
  const out: ReadResult = { reads: [], missing: [], failed: [], usedWorkers: false };
  for (const task of tasks) {
    const one = readAll([task], pricing, scratch);
    out.reads.push(...one.reads);
    out.missing.push(...one.missing);
    out.failed.push(...one.failed);
    await yieldToLoop();
  }
  return out;
}
