import { setImmediate as yieldToLoop, setTimeout as sleep } from 'node:timers/promises';
import type { Logger } from '../../infra/logger.js';
import type { Pricing } from './pricing.js';
import { readsStore, type AgentLoader } from './agents/agent.js';
import { WatchedDiscovery, type Source } from './watched-discovery.js';
import type { TreeLook, WatchedTree } from './watched-tree.js';
import { storeStat } from './agents/store-stat.js';
import { findStores, findTranscripts, statOrNull, UNSIZED, usageRoots, type FoundFile } from './discover.js';
import { fingerprintMatches, newScratch, type FileRead } from './scan-file.js';
import type { PoolResult, Progressed, ScanPool, SizedTask } from './scan-pool.js';
import { readAll } from './scan-worker.js';
import type { UsageStore } from './usage-store.js';
import { appendAll } from './append-all.js';
import { coldTask, EarlyReads, type TaggedFile } from './early-reads.js';
import { byPath, joinInPathOrder } from './path-order.js';
import { newProgress, ProgressTally, type ScanProgress } from './scan-progress.js';
import { dropSecondPaths } from './second-paths.js';
import { Picked, standsAlone, type AgentPlace } from './picked.js';
import { AgentFlags } from './agent-flags.js';

export { newProgress, type ScanProgress };

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
  /** Where each coding agent is read this scan (config.yaml, override variables, defaults); none: Claude only. */
  places?: () => Promise<AgentPlaces>;
}

/** The agents a scan reads: whether Claude Code is on, and each other enabled agent with its dirs. */
export interface AgentPlaces {
  claude: boolean;
  agents: Array<{ loader: AgentLoader; dirs: string[] }>;
}

const isTranscript = (file: string) => file.endsWith('.jsonl');

/**
 * TEST ONLY: `SWITCHBOARD_TEST_SCAN_DELAY_MS` makes each in-thread file read wait that long, so
 * end-to-end tests can watch a first scan in progress. Never set it outside tests.
 */
function testScanDelayMs(): number {
  const ms = Number(process.env.SWITCHBOARD_TEST_SCAN_DELAY_MS ?? 0);
  return Number.isFinite(ms) && ms > 0 ? Math.min(ms, 10_000) : 0;
}

export interface ScanReport {
  files: number;
  filesRead: number;
  bytesRead: number;
  usedWorkers: boolean;
  /**
   * Only the files the directory watches reported were looked at (no walk, no pass over every
   * file); false after a walk, or when a choosing agent (codex) gained or lost a file.
   */
  changesOnly: boolean;
}

/**
 * Brings the store up to date with the files on disk. Incremental: a file with the same size,
 * mtime and inode is not opened; a grown file whose bytes before the last read offset are
 * unchanged is read from that offset; anything else (shrunk, replaced, rewritten) is read whole.
 */
export class UsageLoader {
  constructor(private readonly o: LoaderOptions) {}

  /**
   * `progress` is filled in as the scan goes (the status endpoint shows it). `signal` aborts it
   * (the app quitting): the scan rejects without applying anything.
   */
  async scan(progress: ScanProgress = newProgress(), signal?: AbortSignal): Promise<ScanReport> {
    let found: TaggedFile[];
    let gone: string[] | null;
    const tally = new ProgressTally(progress);
    const early = this.o.pool === null || this.o.store.files.size > 0 || this.watched !== null ? null : new EarlyReads(this.o.pool, tally);
    try {
      ({ found, removed: gone } = await this.discover(this.onFound(tally, early), early));
    } catch (err) {
      early?.feed.end();
      await this.o.pool?.close(); // it may have been started early (its reading, if any, is dropped)
      throw err;
    }
    if (signal?.aborted === true) {
      early?.feed.end();
      await this.o.pool?.close();
    }
    signal?.throwIfAborted();
    const { tasks, removed } = this.plan(found, gone, early);
    let bytes = 0;
    let unsized = 0;
    for (const t of tasks) {
      if (t.bytes === UNSIZED) unsized++;
      else bytes += t.bytes;
    }
    tally.planned(tasks.length, bytes, unsized);
    early?.feed.end();
    const useWorkers = early?.reading != null || (this.o.pool !== null && bytes >= this.o.workerThresholdBytes);
    if (!useWorkers) await this.o.pool?.close(); // started early for bytes that turned out to be known
    const done: Progressed = (files, read, learnt) => tally.read(files, read, learnt);
    const result = useWorkers ? await this.readInWorkers(tasks, done, signal, early ?? undefined) : await readInline(tasks, this.o.pricing, done, signal);
    signal?.throwIfAborted();
    for (const f of result.failed) this.o.logger.warn(`usage: cannot read ${f.path}: ${f.message}`);
    // A cold scan's reads were staged as the threads answered (EarlyReads.stage); the store is empty.
    const stage = result.usedWorkers && early?.reading != null ? early.stage : null;
    stage?.add(result.reads); // none, from the pool; any a reader handed back all the same
    const byPath = stage?.reads ?? new Map(result.reads.map((r) => [r.path, r]));
    const { reads, unfound, unsizedBytes } = this.inPathOrder(tasks, byPath, result.missing, unsized > 0);
    if (stage !== null) this.o.store.adopt(reads, reads.length === stage.reads.size ? stage.index : null, stage.keepsAll, stage.keepsNone); // null: second paths dropped, whose requests the index holds
    else this.o.store.apply(reads, [...removed, ...result.missing.filter((p) => this.o.store.files.has(p))]);
    return {
      files: gone === null ? found.length - unfound : this.o.store.files.size,
      filesRead: reads.length,
      bytesRead: bytes + unsizedBytes,
      usedWorkers: result.usedWorkers,
      changesOnly: gone !== null,
    };
  }

  /**
   * The reads in path order (the tasks' order) whichever thread read what, so sums are added up
   * in the same order every time. Put in place by index: a comparison sort of 140 000 paths that
   * arrive largest file first took over a second (long shared prefixes, profiled at 1 GiB). With
   * UNSIZED files (not stat'ed: a cold scan), a second path to a file already read is dropped now,
   * and it and any such file gone before its read are taken off the files found (`unfound`).
   */
  private inPathOrder(tasks: readonly SizedTask[], byPath: ReadonlyMap<string, FileRead>, missing: readonly string[], hadUnsized: boolean): { reads: FileRead[]; unfound: number; unsizedBytes: number } {
    const ordered = tasks.map((t) => byPath.get(t.path));
    const reads: FileRead[] = [];
    const sources: Array<string | undefined> = [];
    const statted: boolean[] = [];
    let unsizedBytes = 0;
    for (let i = 0; i < ordered.length; i++) {
      const r = ordered[i];
      if (r === undefined) continue;
      reads.push(r);
      const key = tasks[i]!.flagsKey;
      if (key !== undefined) r.flagsKey = key; // the flags it was read with, for the next plan()
      if (!hadUnsized) continue;
      sources.push(tasks[i]!.agent);
      statted.push(tasks[i]!.bytes !== UNSIZED);
      if (tasks[i]!.bytes === UNSIZED) unsizedBytes += r.size - r.start;
    }
    if (!hadUnsized) return { reads, unfound: 0, unsizedBytes };
    const { kept, dropped } = dropSecondPaths(reads, sources, statted);
    const counts = this.lastFound;
    for (const i of dropped) {
      const agent = sources[i] ?? 'claude';
      counts?.set(agent, (counts.get(agent) ?? 1) - 1);
    }
    let unfound = dropped.length;
    const taskOf = missing.length === 0 ? null : new Map(tasks.map((t) => [t.path, t]));
    for (const p of missing) {
      const task = taskOf!.get(p)!;
      if (task.bytes !== UNSIZED) continue; // found by a stat, as any scan counts it
      const agent = task.agent ?? 'claude';
      counts?.set(agent, (counts.get(agent) ?? 1) - 1);
      unfound++;
    }
    return { reads: kept, unfound, unsizedBytes };
  }

  /**
   * Starts the scan threads while discovery is still walking, once the files found so far hold
   * enough bytes this store has not read (a cold scan: after the first few dozen files), so
   * their start-up (tens of milliseconds) overlaps the rest of the walk instead of following it.
   */
  private onFound(tally: ProgressTally, early: EarlyReads | null): (f: FoundFile) => void {
    const pool = this.o.pool;
    const files = this.o.store.files;
    let unread = 0;
    return (f) => {
      // Discovery's estimate, so a UI has totals to show while the walk runs; plan() sets the exact ones.
      if (f.size === UNSIZED) {
        tally.found(UNSIZED); // only found once the threads read (EarlyReads.sized)
        return;
      }
      const known = files.size === 0 ? undefined : files.get(f.path);
      const fresh = Math.max(0, f.size - (known !== undefined && known.ino === f.ino ? known.size : 0));
      unread += fresh;
      if (fresh > 0) tally.found(fresh);
      if (pool !== null && unread >= this.o.workerThresholdBytes) {
        pool.start();
        early?.begin();
      }
    };
  }

  /** Files found per agent id by the last scan (what `GET /api/usage/agents` shows); null before one. */
  lastFound: Map<string, number> | null = null;

  private watched: WatchedDiscovery | null = null;

  /** Each agent's scan flags, and the key a file keeps of them. */
  private readonly flagState = new AgentFlags();

  /**
   * From now on, scans learn what changed from directory watches instead of stat'ing every file
   * (long-running processes: the app, `serve`). The watches are set by `armWatches` after a scan.
   */
  watchFiles(): void {
    this.watched ??= new WatchedDiscovery();
  }

  /** Sets the watches on the directories the last scan walked, in steps (`pause` between them). */
  async armWatches(pause: () => Promise<void>): Promise<void> {
    await this.watched?.arm(pause);
  }

  closeWatches(): void {
    this.watched?.close();
    this.watched = null;
  }

  /**
   * Claude Code's transcripts, then each enabled agent's files below its roots, in path order. A
   * missing agent folder is empty data; one that cannot be listed fails only that agent's part.
   * With watches (`watchFiles`), only the files in directories that changed are returned, with the
   * files gone in `removed` (null: `found` is every file, anything else known is gone).
   */
  private async discover(onFound: (f: FoundFile) => void, early: EarlyReads | null): Promise<{ found: TaggedFile[]; removed: string[] | null }> {
    const places = (await this.o.places?.()) ?? { claude: true, agents: [] };
    const agents = places.agents.map(({ loader, dirs }) => ({ loader, dirs, ...splitRoots(loader, dirs) }));
    const warn = (id: string, err: unknown) => this.o.logger.warn(`usage: cannot list ${id} logs: ${err instanceof Error ? err.message : String(err)}`);
    if (this.watched !== null) {
      const sources: Source[] = [
        ...(places.claude ? [{ key: 'claude', roots: usageRoots(this.o.agentDir, this.o.instancesDir), accept: isTranscript }] : []),
        ...agents.map(({ loader, roots }) => ({ key: loader.id, roots, accept: loader.accepts, onError: (err: unknown) => warn(loader.id, err) })),
      ];
      // Stores and named files (opencode.db, copilot's exporter file) are not below a watched
      // folder of their own: one stat each on every scan, as the walk does.
      const extras = agents.map(({ exact }) => findStores(exact));
      const looks = await this.watched.look(sources);
      if (looks !== null) {
        const claude = places.claude ? looks.shift()! : null;
        const changedOnly = [claude, ...looks].every((l) => l === null || !l.look.full) && !looks.some((l, i) => l.look.membership && agents[i]!.loader.choose !== undefined);
        if (changedOnly) return this.changes(claude, agents, looks, extras, onFound);
        const lists = looks.map(({ tree, look }, i) => [...(look.full ? look.files : tree.all()), ...extras[i]!]);
        const claudeFiles = claude === null ? [] : claude.look.full ? claude.look.files : claude.tree.all();
        for (const f of claudeFiles) onFound(f);
        for (const list of lists) for (const f of list) onFound(f);
        const picked = new Picked(claudeFiles, usageRoots(this.o.agentDir, this.o.instancesDir));
        agents.forEach((a, i) => this.pick(picked, a, [lists[i]!]));
        return { found: this.finish(picked, false), removed: null };
      }
    }
    const sized = early?.sized;
    // Every agent's stores and named files before any walk (a stat each): a store is one read of its
    // own and the longest of a scan (opencode.db at 1 GiB: ~1.5 s of a thread), so it goes to the
    // threads as they start, not after the walks with one thread left to read it alone.
    // One another source may list too (places that overlap) waits for the usual picking.
    const claudeRoots = usageRoots(this.o.agentDir, this.o.instancesDir);
    const flags = agents.map((a) => this.flagState.read(a.loader, a.dirs));
    const exact = agents.map((a) => findStores(a.exact, onFound).sort(byPath));
    const placesBut = (i: number) => [...(places.claude ? claudeRoots : []), ...agents.flatMap((b, j) => (j === i ? b.roots : [...b.roots, ...b.exact]))];
    const storesFirst = agents.map((a, i) => early !== null && standsAlone(a.exact, placesBut(i)));
    for (const [i, a] of agents.entries()) if (storesFirst[i]) early!.add(exact[i]!.map((f) => this.tag(f, a.loader, flags[i]!)));
    const claudeFiles = places.claude ? await findTranscripts(claudeRoots, onFound, undefined, false, sized) : [];
    const picked = new Picked(claudeFiles, claudeRoots);
    early?.add(claudeFiles);
    for (const [i, a] of agents.entries()) {
      let mine: FoundFile[] = [];
      try {
        mine = await findTranscripts(a.roots, onFound, a.loader.accepts, false, sized);
      } catch (err) {
        warn(a.loader.id, err);
      }
      const [walked, stores] = this.pick(picked, a, [mine, exact[i]!], flags[i]!);
      early?.add(walked!);
      if (!storesFirst[i]) early?.add(stores!);
    }
    return { found: this.finish(picked, true), removed: null };
  }

  /**
   * One agent's files (`runs`) added to `picked`, tagged; a path an earlier source has is skipped
   * (looked up only when their roots overlap). Returns the runs it took.
   */
  private pick(picked: Picked, { loader, dirs, roots, exact }: AgentPlace, runs: ReadonlyArray<readonly FoundFile[]>, flags = this.flagState.read(loader, dirs)): TaggedFile[][] {
    const files = runs.length === 1 ? runs[0]! : runs.flat();
    const chosen = loader.choose?.(files.map((f) => f.path));
    const seen = picked.seenIfShared(roots, exact);
    const taken = runs.map((run) => {
      const mine: TaggedFile[] = [];
      for (const f of run) {
        if (chosen !== undefined && !chosen.has(f.path)) continue;
        if (seen !== null) {
          if (seen.has(f.path)) continue;
          seen.add(f.path);
        }
        mine.push(this.tag(f, loader, flags));
      }
      picked.runs.push(mine);
      return mine;
    });
    picked.counts.set(loader.id, taken.reduce((n, run) => n + run.length, 0));
    picked.exact.set(loader.id, new Set(exact.length === 0 ? [] : files.filter((f) => exact.includes(f.path)).map((f) => f.path)));
    return taken;
  }

  /** `walked`: each run is in path order (a walk's); else the runs are sorted as a whole. */
  private finish(picked: Picked, walked: boolean): TaggedFile[] {
    this.lastFound = picked.counts;
    this.lastExact = picked.exact;
    return walked ? joinInPathOrder(picked.runs) : picked.runs.flat().sort(byPath);
  }

  /** Per agent, the stores and named files found by the last scan (a watched scan tells which of them went). */
  private lastExact = new Map<string, Set<string>>();


  /** What the watches saw change: the files to look at again and those gone (no file was added to or removed from a choosing agent). */
  private changes(
    claude: { tree: WatchedTree; look: TreeLook } | null,
    agents: ReadonlyArray<{ loader: AgentLoader; dirs: string[] }>,
    looks: ReadonlyArray<{ tree: WatchedTree; look: TreeLook }>,
    extras: ReadonlyArray<readonly FoundFile[]>,
    onFound: (f: FoundFile) => void,
  ): { found: TaggedFile[]; removed: string[] } {
    const found: TaggedFile[] = [];
    const removed: string[] = [];
    const counts = new Map(this.lastFound ?? []);
    if (claude !== null) {
      for (const f of claude.look.files) found.push(f);
      appendAll(removed, claude.look.removed);
      counts.set('claude', claude.tree.size);
    }
    looks.forEach(({ tree, look }, i) => {
      const { loader, dirs } = agents[i]!;
      const exact = extras[i]!;
      const { flags, changed } = this.flagState.watched(loader, dirs, look.files.length > 0 || look.removed.length > 0 || exact.length > 0);
      for (const f of chosenOf(loader, tree, look.files, this.o.store)) found.push(this.tag(f, loader, flags));
      // Flags changed: the agent's other files are planned too; those read with other flags are read again.
      if (changed) for (const f of othersOf(loader, tree, look)) found.push(this.tag(f, loader, flags));
      appendAll(removed, look.removed);
      // Every store is handed on (an unchanged one is skipped by its stat); one gone is removed.
      for (const f of exact) found.push(this.tag(f, loader, flags));
      const now = new Set(exact.map((f) => f.path));
      for (const p of this.lastExact.get(loader.id) ?? []) if (!now.has(p)) removed.push(p);
      this.lastExact.set(loader.id, now);
      if (loader.choose === undefined) counts.set(loader.id, tree.size);
    });
    for (const f of found) onFound(f);
    this.lastFound = counts;
    return { found: found.sort(byPath), removed };
  }

  private tag(f: FoundFile, loader: AgentLoader, flags: string): TaggedFile {
    const flagsKey = this.flagState.key(loader, f.path, flags);
    if (f.size === UNSIZED || !readsStore(loader, f.path)) return { path: f.path, size: f.size, mtimeMs: f.mtimeMs, ino: f.ino, agent: loader.id, flags, flagsKey };
    const { size, mtimeMs } = storeStat(f.path, f);
    return { path: f.path, size, mtimeMs, ino: f.ino, agent: loader.id, flags, flagsKey };
  }

  /**
   * `gone`: the files known to be gone (a watched scan); null: `found` is every file and the rest is
   * gone. With nothing read yet every file is read whole: the tasks a cold scan gave the threads.
   */
  private plan(found: readonly TaggedFile[], gone: readonly string[] | null, early: EarlyReads | null): { tasks: SizedTask[]; removed: string[] } {
    if (gone === null && this.o.store.files.size === 0) return { tasks: early?.tasks(found) ?? found.map(coldTask), removed: [] };
    const tasks: SizedTask[] = [];
    const present = new Set<string>();
    for (const f of found) {
      if (gone === null) present.add(f.path);
      const known = this.o.store.files.get(f.path);
      const sameFlags = f.agent === undefined || (known?.flagsKey ?? '') === f.flagsKey;
      if (known && known.size === f.size && known.mtimeMs === f.mtimeMs && known.ino === f.ino && sameFlags) continue;
      if (f.agent !== undefined) {
        tasks.push({ path: f.path, start: 0, bytes: f.size, agent: f.agent, flags: f.flags, flagsKey: f.flagsKey });
        continue; // read whole on any change (agents/agent-file.ts)
      }
      const appended = known !== undefined && known.ino === f.ino && f.size >= known.size && fingerprintMatches(f.path, known.offset, known.fingerprint);
      const start = appended ? known.offset : 0;
      tasks.push({ path: f.path, start, bytes: f.size - start });
    }
    const removed = gone === null ? [...this.o.store.files.keys()].filter((p) => !present.has(p)) : gone.filter((p) => this.o.store.files.has(p));
    return { tasks, removed };
  }

  private async readInWorkers(tasks: SizedTask[], done: Progressed, signal?: AbortSignal, early?: EarlyReads): Promise<ReadResult> {
    let reported = { files: 0, bytes: 0, unsizedFiles: 0, unsizedBytes: 0 };
    try {
      if (early?.reading != null) {
        reported = early.done;
        return { ...(await early.reading), usedWorkers: true };
      }
      return {
        ...(await this.o.pool!.read(tasks, (files, bytes, unsized) => {
          reported = { ...reported, files: reported.files + files, bytes: reported.bytes + bytes };
          done(files, bytes, unsized);
        })),
        usedWorkers: true,
      };
    } catch (err) {
      signal?.throwIfAborted(); // the pool was closed for a stop: no fallback read
      this.o.logger.warn(`usage: scan workers failed (${err instanceof Error ? err.message : String(err)}); reading in the main thread`);
      done(-reported.files, -reported.bytes, false); // read again from the start
      done(-reported.unsizedFiles, -reported.unsizedBytes, true);
      return readInline(tasks, this.o.pricing, done, signal);
    }
  }
}

type ReadResult = PoolResult & { usedWorkers: boolean };

/**
 * The changed files a choosing agent still counts. No file came or went (else the scan is not
 * changes-only), so the last choice stands: a changed file the store does not hold (codex's
 * archived copy of a live session) was left out by it, and the choice is made again over every
 * known file (from memory) only then.
 */
function chosenOf(loader: AgentLoader, tree: WatchedTree, files: FoundFile[], store: UsageStore): FoundFile[] {
  if (loader.choose === undefined || files.every((f) => store.files.has(f.path))) return files;
  const chosen = loader.choose(tree.all().map((f) => f.path));
  return files.filter((f) => chosen.has(f.path));
}

/** An agent's files the look did not report (a chooser's choice applied: codex's archived copies stay out). */
function othersOf(loader: AgentLoader, tree: WatchedTree, look: TreeLook): FoundFile[] {
  const listed = new Set(look.files.map((f) => f.path));
  const all = tree.all();
  const chosen = loader.choose?.(all.map((f) => f.path));
  return all.filter((f) => !listed.has(f.path) && (chosen === undefined || chosen.has(f.path)));
}

/** Small reads stay in this thread, yielding between files so requests keep flowing. */
async function readInline(tasks: readonly SizedTask[], pricing: Pricing, done: Progressed, signal?: AbortSignal): Promise<ReadResult> {
  const scratch = newScratch();
  const out: ReadResult = { reads: [], missing: [], failed: [], usedWorkers: false };
  const delayMs = testScanDelayMs();
  for (const task of tasks) {
    signal?.throwIfAborted();
    const one = readAll([task], pricing, scratch);
    appendAll(out.reads, one.reads);
    appendAll(out.missing, one.missing);
    appendAll(out.failed, one.failed);
    const unsized = task.bytes === UNSIZED;
    done(1, unsized ? one.reads.reduce((sum, r) => sum + r.size - r.start, 0) : task.bytes, unsized);
    if (delayMs > 0) await sleep(delayMs);
    else await yieldToLoop();
  }
  return out;
}

/**
 * An agent's roots split for discovery: folders to walk or watch, and exact files — its stores
 * (`stores(dir)`: opencode.db, goose's and hermes's databases, one stat each) and, for a loader
 * with `alsoFileVar` (copilot), a root that is a file.
 */
function splitRoots(loader: AgentLoader, dirs: readonly string[]): { roots: string[]; exact: string[] } {
  const all = dirs.flatMap((d) => loader.roots(d));
  const fileRoots = loader.alsoFileVar === undefined ? [] : all.filter((r) => statOrNull(r)?.isFile() === true);
  const stores = loader.stores;
  return { roots: all.filter((r) => !fileRoots.includes(r)), exact: [...fileRoots, ...(stores === undefined ? [] : dirs.flatMap((d) => stores(d)))] };
}
