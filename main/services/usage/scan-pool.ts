import type { Worker } from 'node:worker_threads';
import { startWorker } from '../../infra/worker-entry.js';
import { unpackRecords } from './record-pack.js';
import type { FileRead, ReadTask } from './scan-file.js';
import type { ScanReply, ScanRequest } from './scan-worker.js';

export interface SizedTask extends ReadTask {
  bytes: number;
}

export interface PoolResult {
  reads: FileRead[];
  missing: string[];
  failed: ScanReply['failed'];
}

const BATCH_BYTES = 16 << 20;
const BATCH_FILES = 64;

/**
 * Worker threads for large scans, so a cold scan of gigabytes uses every core and leaves the
 * API's event loop free. Started on first use, stopped after a quiet spell. Files go out largest
 * first in small batches, each worker taking the next batch when it answers, so the cores finish
 * together.
 */
export class ScanPool {
  private workers: Worker[] = [];
  private idleTimer: NodeJS.Timeout | null = null;
  private nextId = 1;

  constructor(
    readonly size: number,
    private readonly idleMs = 30_000,
  ) {}

  async read(tasks: readonly SizedTask[]): Promise<PoolResult> {
    this.cancelIdle();
    const workers = this.ensureWorkers();
    const queue = [...tasks].sort((a, b) => b.bytes - a.bytes);
    const result: PoolResult = { reads: [], missing: [], failed: [] };
    try {
      await Promise.all(workers.map((w) => this.drain(w, queue, result)));
    } catch (err) {
      await this.close();
      throw err;
    }
    this.scheduleIdle();
    return result;
  }

  /** Starts the threads ahead of need (a worker from sources takes a moment to load tsx). */
  warm(): void {
    this.ensureWorkers();
    this.scheduleIdle();
  }

  async close(): Promise<void> {
    this.cancelIdle();
    const workers = this.workers;
    this.workers = [];
    await Promise.all(workers.map((w) => w.terminate()));
  }

  private ensureWorkers(): Worker[] {
    while (this.workers.length < this.size) this.workers.push(startWorker('main/services/usage/scan-worker'));
    return this.workers;
  }

  private async drain(worker: Worker, queue: SizedTask[], result: PoolResult): Promise<void> {
    for (;;) {
      const batch = takeBatch(queue);
      if (batch.length === 0) return;
      const reply = await this.ask(worker, { id: this.nextId++, tasks: batch.map(({ path, start }) => ({ path, start })) });
      const records = unpackRecords(reply.packed);
      let at = 0;
      for (const { recordCount, tailCount, ...meta } of reply.reads) {
        const own = records.slice(at, at + recordCount + tailCount);
        at += recordCount + tailCount;
        result.reads.push({ ...meta, records: own.slice(0, recordCount), tail: own.slice(recordCount) });
      }
      result.missing.push(...reply.missing);
      result.failed.push(...reply.failed);
    }
  }

  private ask(worker: Worker, request: ScanRequest): Promise<ScanReply> {
    return new Promise((resolve, reject) => {
      const onMessage = (reply: ScanReply) => {
        if (reply.id !== request.id) return;
        cleanup();
        resolve(reply);
      };
      const onError = (err: Error) => {
        cleanup();
        reject(err);
      };
      const onExit = (code: number) => {
        cleanup();
        reject(new Error(`scan worker exited with code ${code}`));
      };
      const cleanup = () => {
        worker.off('message', onMessage);
        worker.off('error', onError);
        worker.off('exit', onExit);
      };
      worker.on('message', onMessage);
      worker.on('error', onError);
      worker.on('exit', onExit);
      worker.postMessage(request);
    });
  }

  private scheduleIdle(): void {
    this.cancelIdle();
    this.idleTimer = setTimeout(() => void this.close(), this.idleMs);
    this.idleTimer.unref();
  }

  private cancelIdle(): void {
    if (this.idleTimer) clearTimeout(this.idleTimer);
    this.idleTimer = null;
  }
}

function takeBatch(queue: SizedTask[]): SizedTask[] {
  const batch: SizedTask[] = [];
  let bytes = 0;
  while (queue.length > 0 && batch.length < BATCH_FILES && (batch.length === 0 || bytes + queue[0]!.bytes <= BATCH_BYTES)) {
    const task = queue.shift()!;
    batch.push(task);
    bytes += task.bytes;
  }
  return batch;
}
