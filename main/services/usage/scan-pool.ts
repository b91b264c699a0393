import type { Worker } from 'node:worker_threads';
import { startWorker } from '../../infra/worker-entry.js';
import { bytesRead, readsOfReply } from './read-pack.js';
import type { FileRead, ReadTask } from './scan-file.js';
import type { ScanReply, ScanRequest } from './scan-worker.js';
import { appendAll } from './append-all.js';
import { UNSIZED } from './discover.js';
import { packTasks } from './task-pack.js';

export interface SizedTask extends ReadTask {
  /** Bytes to read; UNSIZED (discover.ts) when a cold scan did not stat the file: its read tells. */
  bytes: number;
  /** What the file's state keeps of `flags` (agent-flags.ts); stays in this thread. */
  flagsKey?: string;
}

/** Heard per batch read: its files, the bytes read, and whether they were UNSIZED files (sizes learnt by reading). */
export type Progressed = (files: number, bytes: number, unsized: boolean) => void;

export interface PoolResult {
  reads: FileRead[];
  missing: string[];
  failed: ScanReply['failed'];
}

const BATCH_BYTES = 16 << 20;
/**
 * Files a batch holds at most. 256 rather than 64: OpenCode's 122 000 one-message files made ~2 000
 * round trips at 64, and unpacking and staging that many replies kept this thread so busy late in
 * a cold scan that the scan threads waited for it (~50 % busy); at 256 the 1 GiB cold scan ended
 * ~0.14 s sooner (3 alternating pairs, the answer identical).
 */
export const BATCH_FILES = 256;
/** Batches a worker holds at once: the one it reads and the next. */
const IN_FLIGHT = 2;
/** Once the feed is ended, a batch of UNSIZED files takes at most this share of those left. */
const TAIL_SHARE = 16;

/**
 * Worker threads for large scans, so a cold scan of gigabytes uses every core and leaves the
 * API's event loop free. Started for a scan and stopped right after it: big scans are rare (first
 * start, refresh), and idle threads would hold memory while the disk cache is written. Files go
 * out largest first in small batches, each worker taking the next batch when it answers, so the
 * cores finish together; a worker gets its next batch before its last reply is unpacked.
 */
export class ScanPool {
  private workers: Worker[] = [];
  private nextId = 1;

  constructor(readonly size: number) {}

  /** `done` hears of each batch answered: its file count and bytes (progress for the status endpoint). */
  async read(tasks: readonly SizedTask[], done: Progressed = () => undefined): Promise<PoolResult> {
    const feed = new TaskFeed();
    feed.add(tasks);
    feed.end();
    return this.readFeed(feed, done);
  }

  /**
   * Reads the tasks of `feed` as they are added, until it is ended and drained. With `onReads`,
   * each answer's reads go there as it arrives (the result's `reads` stays empty).
   */
  async readFeed(feed: TaskFeed, done: Progressed = () => undefined, onReads?: (reads: FileRead[]) => void): Promise<PoolResult> {
    const workers = this.start();
    const result: PoolResult = { reads: [], missing: [], failed: [] };
    try {
      await Promise.all(workers.map((w) => this.drain(w, feed, result, done, onReads)));
    } finally {
      await this.close();
    }
    return result;
  }

  /**
   * Starts the threads without waiting for them: a scan that will need them calls this as soon as
   * it knows, so their start-up overlaps the rest of the file discovery. `read` uses them.
   */
  start(): Worker[] {
    // A bounded young generation: parsing makes short-lived garbage only (a file's requests are
    // packed as soon as it is read), and the default lets each thread hold tens of MiB of it. 48 MiB
    // rather than 24: on 1 GiB of logs it took the threads' scavenges from ~1.15 to ~0.75 s of CPU
    // and a cold scan ~0.25 s sooner (3 alternating pairs); 96 was no faster and peaked higher.
    while (this.workers.length < this.size) {
      this.workers.push(startWorker('main/services/usage/scan-worker', { resourceLimits: { maxYoungGenerationSizeMb: 48 } }));
    }
    return this.workers;
  }

  async close(): Promise<void> {
    const workers = this.workers;
    this.workers = [];
    await Promise.all(workers.map((w) => w.terminate()));
  }

  /**
   * Keeps IN_FLIGHT batches with `worker` while tasks are at hand, so it starts its next batch the
   * moment it answers one, however long this thread takes to unpack the answer (OpenCode's 122 000
   * small files are ~2 000 round trips; with one batch in flight the threads waited for this one a
   * third of the time). Waits for the feed only when the worker has nothing.
   */
  private async drain(worker: Worker, feed: TaskFeed, result: PoolResult, done: Progressed, onReads?: (reads: FileRead[]) => void): Promise<void> {
    const inFlight: Array<{ asked: SizedTask[]; reply: Promise<ScanReply> }> = [];
    const topUp = () => {
      while (inFlight.length < IN_FLIGHT) {
        const ready = feed.ready();
        if (ready === null || ready.length === 0) return;
        inFlight.push({ asked: ready, reply: this.askFor(worker, ready)! });
      }
    };
    try {
      for (;;) {
        topUp();
        if (inFlight.length === 0) {
          const asked = await feed.take(); // nothing at hand: wait for the walk, or the end
          if (asked.length === 0) return;
          inFlight.push({ asked, reply: this.askFor(worker, asked)! });
        }
        const { asked, reply: pending } = inFlight.shift()!;
        const reply = await pending;
        // A batch is all sized or all UNSIZED (TaskFeed); the latter's bytes are what was read.
        const unsized = asked[0]!.bytes === UNSIZED;
        done(asked.length, unsized ? bytesRead(reply.reads) : asked.reduce((sum, t) => sum + t.bytes, 0), unsized);
        topUp(); // before unpacking: the worker is never left without a batch while there are tasks
        collect(reply, result);
        if (onReads !== undefined) onReads(result.reads.splice(0));
      }
    } catch (err) {
      for (const f of inFlight) f.reply.catch(() => undefined); // rejected when the pool closes; this error is the one to report
      throw err;
    }
  }

  private askFor(worker: Worker, batch: readonly SizedTask[]): Promise<ScanReply> | null {
    if (batch.length === 0) return null;
    return this.ask(worker, { id: this.nextId++, tasks: packTasks(batch) });
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
}

/** Unpacks a reply; each read keeps its run in the reply's batch, which the disk cache writes as it is. */
function collect(reply: ScanReply, result: PoolResult): void {
  appendAll(result.reads, readsOfReply(reply.reads, reply.packed));
  appendAll(result.missing, reply.missing);
  appendAll(result.failed, reply.failed);
}

/**
 * Tasks for the workers, added while discovery still walks (a cold scan: the threads read one
 * agent's files while the next agent's folders are listed) and ended when it is done. Sized files
 * go out before UNSIZED ones (not stat'ed), whenever added, each added run largest first; UNSIZED
 * files in the order given. Each queue's tasks left are those from its index on. (An index, not `shift()`: shifting a queue of 100 000+
 * small files, as OpenCode's one file per message makes, moved the whole array per file and took
 * more time than reading them.)
 *
 * A batch holds sized or UNSIZED files, never both: up to 16 MiB or 64 files of the first, 64 of
 * the second. With sizes unknown the threads cannot be given equal bytes, so once the feed is ended
 * a batch takes at most a sixteenth of the files left: the last batches are a file or two each,
 * and the thread that drew a large file does not finish long after the other.
 */
export class TaskFeed {
  /** Files of known size, each added run largest first, served before any unsized file. */
  private readonly sized: SizedTask[] = [];
  private nextSized = 0;
  /** UNSIZED files (a cold scan's walk after the threads started), in the order added. */
  private readonly unsized: SizedTask[] = [];
  private nextUnsized = 0;
  private ended = false;
  private waiting: Array<() => void> = [];

  add(tasks: readonly SizedTask[]): void {
    if (this.ended) throw new Error('tasks added to an ended feed');
    const sized = tasks.filter((t) => t.bytes !== UNSIZED);
    appendAll(this.sized, sized.sort((a, b) => b.bytes - a.bytes));
    if (sized.length < tasks.length) appendAll(this.unsized, sized.length === 0 ? tasks : tasks.filter((t) => t.bytes === UNSIZED));
    this.wake();
  }

  end(): void {
    this.ended = true;
    this.wake();
  }

  /** The next batch if one is at hand now; [] once ended and drained; null while empty but not ended. */
  ready(): SizedTask[] | null {
    if (this.nextSized < this.sized.length || this.nextUnsized < this.unsized.length) return this.batch();
    return this.ended ? [] : null;
  }

  /**
   * The next batch; waits while the feed is empty but not ended; empty once it is ended and drained.
   * A sized file goes before the unsized ones queued earlier: it was stat'ed because it is a store
   * or a link's target, and a store is the largest single read (the 1 GiB bench's opencode.db took
   * a thread 1.5 s): queued behind 130 000 small files, it was read alone at the end with the other
   * thread idle.
   */
  async take(): Promise<SizedTask[]> {
    while (this.nextSized >= this.sized.length && this.nextUnsized >= this.unsized.length && !this.ended) await new Promise<void>((resolve) => this.waiting.push(resolve));
    return this.batch();
  }

  private batch(): SizedTask[] {
    const batch: SizedTask[] = [];
    if (this.nextSized >= this.sized.length) {
      const { unsized } = this;
      const left = unsized.length - this.nextUnsized;
      const most = this.ended ? Math.max(1, Math.min(BATCH_FILES, Math.floor(left / TAIL_SHARE))) : BATCH_FILES;
      while (this.nextUnsized < unsized.length && batch.length < most) batch.push(unsized[this.nextUnsized++]!);
      return batch;
    }
    const { sized } = this;
    let bytes = 0;
    while (this.nextSized < sized.length && batch.length < BATCH_FILES && (batch.length === 0 || bytes + sized[this.nextSized]!.bytes <= BATCH_BYTES)) {
      const task = sized[this.nextSized++]!;
      batch.push(task);
      bytes += task.bytes;
    }
    return batch;
  }

  private wake(): void {
    const waiting = this.waiting;
    this.waiting = [];
    for (const resolve of waiting) resolve();
  }
}
