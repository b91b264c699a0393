import { appendAll } from './append-all.js';
import type { FoundFile } from './discover.js';
import { joinInPathOrder } from './path-order.js';
import { ColdStage } from './cold-stage.js';
import type { ProgressTally } from './scan-progress.js';
import { TaskFeed, type PoolResult, type Progressed, type ScanPool, type SizedTask } from './scan-pool.js';

/** A found file with the agent that wrote it (undefined: a Claude Code transcript), its flags and their key (agent-flags.ts). */
export type TaggedFile = FoundFile & { agent?: string; flags?: string; flagsKey?: string };

/** The task plan() makes of a file when nothing has been read (a cold scan): the whole file. */
export function coldTask(f: TaggedFile): SizedTask {
  return f.agent !== undefined ? { path: f.path, start: 0, bytes: f.size, agent: f.agent, flags: f.flags, flagsKey: f.flagsKey } : { path: f.path, start: 0, bytes: f.size };
}

/**
 * A cold scan's reads in the threads while discovery walks on: each source's files, once listed and
 * tagged, are the tasks plan() would make of them (every file, whole), and go to the threads as soon
 * as they started; the walk of a gigabyte's 140 000 files took a quarter of the scan with both
 * threads idle. Once the threads read, the walk stops stat'ing files (discover.ts UNSIZED).
 */
export class EarlyReads {
  readonly feed = new TaskFeed();
  /** The threads' reading, once enough bytes were found to start them. */
  reading: Promise<PoolResult> | null = null;
  /** The reads the threads answered, gathered as they come (the reading's own `reads` stays empty). */
  readonly stage = new ColdStage();
  /** What the threads reported read so far, sized and UNSIZED files apart (a fallback read takes it back). */
  readonly done = { files: 0, bytes: 0, unsizedFiles: 0, unsizedBytes: 0 };
  /** Every task given, one run per source run, each in path order. */
  private readonly runs: SizedTask[][] = [];
  private readonly held: SizedTask[] = [];

  constructor(
    private readonly pool: ScanPool,
    private readonly tally: ProgressTally,
  ) {}

  /** Whether the walk still stats the files it finds: until the threads read. */
  readonly sized = (): boolean => this.reading === null;

  readonly begin = (): void => {
    if (this.reading !== null) return;
    this.reading = this.pool.readFeed(this.feed, this.heard, (reads) => this.stage.add(reads));
    this.reading.catch(() => undefined); // awaited (or given up on) by scan()
    this.feed.add(this.held.splice(0));
  };

  /** One run of a source's files, in path order. */
  readonly add = (files: readonly TaggedFile[]): void => {
    const tasks = files.map(coldTask);
    this.runs.push(tasks);
    if (this.reading === null) appendAll(this.held, tasks);
    else this.feed.add(tasks);
  };

  /** Every task given, in path order: plan()'s tasks for `found` (the same runs, joined), made once. */
  tasks(found: readonly TaggedFile[]): SizedTask[] {
    const tasks = joinInPathOrder(this.runs);
    return tasks.length === found.length ? tasks : found.map(coldTask);
  }

  private readonly heard: Progressed = (files, bytes, unsized) => {
    if (unsized) {
      this.done.unsizedFiles += files;
      this.done.unsizedBytes += bytes;
    } else {
      this.done.files += files;
      this.done.bytes += bytes;
    }
    this.tally.read(files, bytes, unsized);
  };
}
