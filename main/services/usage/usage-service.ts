import os from 'node:os';
import { setImmediate as yieldToLoop } from 'node:timers/promises';
import { errorMessage, type FileIdentity } from '../../infra/file-stat.js';
import type { ServiceContext } from '../context.js';
import { agentPlaces, agentStatuses, type AgentStatus } from './agents/places.js';
import { anomalyId, type Anomaly } from './anomalies.js';
import { transcriptsDir } from './discover.js';
import type { DailyEntry, MonthlyEntry } from './daily.js';
import { readCacheFile, writeCacheFile, type CacheIdentity } from './disk-cache.js';
import type { HourlyEntry } from './hourly.js';
import type { ModelEntry } from './models.js';
import { Pricing } from './pricing.js';
import { ScanPool } from './scan-pool.js';
import { DEFAULT_COST_MODE, type CostMode } from './cost-mode.js';
import type { ProjectEntry } from './projects.js';
import { selectSessions, type SessionQuery } from './session-query.js';
import type { SessionEntry } from './sessions.js';
import type { UsageSummary } from './summary.js';
import { UsageFetchError, UsageRangeError, UsageUnavailableError } from './usage-errors.js';
import { newProgress, UsageLoader, type ScanProgress, type ScanReport } from './usage-loader.js';
import { UsageStore } from './usage-store.js';
import { UsageViews, type ViewQuery } from './usage-views.js';
import { ZoneSetting } from './zone-setting.js';
import { FRESH_MS, MONTHLY_FRESH_MS, STALE_LIMIT_MS } from './freshness.js';
import { humanAge } from './human-age.js';

/** What an endpoint asks: an optional zone (already validated) and local-day window. */
export interface UsageParams {
  tz?: string;
  /** Cost mode (validated); default usage.cost_mode from config.yaml. */
  mode?: CostMode;
  since?: number | null;
  until?: number | null;
  /** One coding agent's usage (a known id, validated); absent = every agent. */
  agent?: string;
}

export interface CacheStatus {
  cached: boolean;
  lastFetch: number | null;
  lastFetchHuman: string | null;
  cacheAge: number | null;
  cacheAgeHuman: string | null;
  files: number | null;
  malformedLines: number | null;
  /** Lines over 64 MiB, skipped without being read into memory (scan-file.ts). */
  oversizedLines: number | null;
  /** A scan is running (the first one, a background refresh, or a refresh). */
  scanning: boolean;
  /** Non-null while a scan runs. */
  progress: ScanProgress | null;
  /** Why the last scan failed; null once one succeeds (so a UI stops waiting for a first scan that failed). */
  lastError: string | null;
  /** Where the agent's transcripts are read from (`{agentDir}/projects`), so a UI that finds none can say where it looked. */
  transcriptsDir: string;
}

export interface UsageServiceOptions {
  /** Worker threads for big scans; null reads in the main thread. Default: one per core, at most 2 (memory). */
  pool?: ScanPool | null;
  workerThresholdBytes?: number;
}

export { FRESH_MS, MONTHLY_FRESH_MS, STALE_LIMIT_MS };
/**
 * A disk cache write waits this long after the scan that changed the data, and later changes join
 * it: encoding the whole cache takes tens of milliseconds at a gigabyte of logs, and it would hold
 * up the reads that follow a refresh (the dashboard reads right after its Refresh). A crash in
 * between costs the next start an incremental scan of what changed.
 */
export const PERSIST_DELAY_MS = 1_000;
const QUARTER_HOUR_MS = 900_000;

/** The answers `reuse` can speak for. */
export type AnswerKind = 'summary' | 'daily' | 'hourly' | 'monthly' | 'models' | 'insights' | 'sessions' | 'projects';

/**
 * Usage analytics behind the API: the cache states of spec section 3 on top of an incremental
 * loader. Fresh data is served from memory; stale data (up to 7 days) is served at once while one
 * background scan runs; without data a read waits for a scan that concurrent readers share.
 */
export class UsageService {
  private readonly store: UsageStore;
  private readonly views: UsageViews;
  private readonly loader: UsageLoader;
  private readonly pool: ScanPool | null;
  private readonly zones: ZoneSetting;
  private readonly identity: CacheIdentity;
  private readonly pricing: Pricing;
  private lastFetch: number | null = null;
  private lastReport: ScanReport | null = null;
  private inflight: Promise<void> | null = null;
  /** The running scan's progress; null when none runs. */
  private progress: ScanProgress | null = null;
  private lastError: string | null = null;
  private loaded: Promise<void> = Promise.resolve();
  private persisting: Promise<void> = Promise.resolve();
  /** Resolves once the latest disk cache write has handed its bytes to the thread pool (or ended without). */
  private handedOff: Promise<void> = Promise.resolve();
  /** A disk cache write waiting out PERSIST_DELAY_MS (later changes join it); null when none waits. */
  private persistTimer: { timer: NodeJS.Timeout; write: () => void } | null = null;
  /** Setting the directory watches after a scan (watch mode); the next scan waits for it. */
  private arming: Promise<void> = Promise.resolve();
  private watching = false;
  /** Store version the disk cache holds; a scan that changed nothing is not written again. */
  private persistedVersion = -1;
  /** Anomalies already announced (or the quiet first baseline); null: none set yet. */
  private seenAnomalies: Set<string> | null = null;
  private announcing = true;
  /** Store version and lastFetch the disk cache file holds (written or restored); -1: unknown. */
  private disk: { version: number; lastFetch: number; file: FileIdentity | null } = { version: -1, lastFetch: 0, file: null };
  private stamp = { version: -1, epoch: -1, text: '' };
  private stopZoneWatch: () => void = () => undefined;
  private started = false;
  /** Aborted by stop(): a running scan ends at once (the app is quitting), none starts after. */
  private readonly stopping = new AbortController();

  constructor(
    private readonly ctx: ServiceContext,
    options: UsageServiceOptions = {},
  ) {
    const pricing = (this.pricing = new Pricing());
    this.store = new UsageStore(pricing);
    this.views = new UsageViews(this.store, pricing);
    this.pool = options.pool === undefined ? new ScanPool(Math.min(2, os.availableParallelism())) : options.pool;
    this.identity = { agentDir: ctx.paths.agentDir, instancesDir: ctx.paths.instancesDir };
    this.loader = new UsageLoader({
      ...this.identity,
      store: this.store,
      pricing,
      logger: ctx.logger,
      pool: this.pool,
      workerThresholdBytes: options.workerThresholdBytes ?? 64 << 20,
      places: () => agentPlaces(ctx),
    });
    this.zones = new ZoneSetting(ctx);
  }

  /**
   * Loads the disk cache in the background; reads wait for it. Once per service (later calls do
   * nothing). `scanWithoutCache`: when there is no usable disk cache, the first scan starts right
   * away instead of with the first read, so the app reads the logs while it is still starting up
   * (the desktop app and `serve` do this; a read then shares that scan). `announceAnomalies:
   * false` (the terminal, which has nobody to tell) skips the check after each scan: it sums the
   * whole history (half a second at 1 GiB of logs), and the disk cache keeps the last baseline,
   * or none, so the app's next scan sets one quietly.
   */
  start(options: { scanWithoutCache?: boolean; watch?: boolean; announceAnomalies?: boolean } = {}): void {
    if (this.started) return;
    this.started = true;
    this.announcing = options.announceAnomalies !== false;
    // Long-running processes learn about changed files from directory watches (watched-tree.ts).
    if (options.watch) {
      this.watching = true;
      this.loader.watchFiles();
    }
    this.stopZoneWatch = this.zones.watch();
    this.loaded = this.loadDiskCache();
    if (options.scanWithoutCache) {
      void this.loaded.then(() => {
        if (this.lastFetch === null && this.inflight === null && !this.stopping.signal.aborted) this.revalidate();
      });
    }
  }

  /**
   * Ends a running scan instead of waiting for it (a first scan of gigabytes would hold a quit up
   * for seconds; the disk cache keeps what the last finished scan found), then waits for the disk
   * cache write under way.
   */
  async stop(): Promise<void> {
    this.stopZoneWatch();
    this.stopping.abort();
    await this.loaded;
    await this.pool?.close(); // worker reads reject at once; the scan sees the abort, not a fallback
    await this.inflight?.catch(() => undefined);
    await this.arming;
    this.loader.closeWatches();
    this.flushPersist();
    await this.persisting;
    await this.pool?.close();
  }

  summary(p: UsageParams): Promise<UsageSummary> {
    return this.answer(FRESH_MS, p, (q) => this.views.summary(q));
  }

  daily(p: UsageParams): Promise<DailyEntry[]> {
    return this.answer(FRESH_MS, p, (q) => this.views.daily(q));
  }

  hourly(p: UsageParams): Promise<HourlyEntry[]> {
    return this.answer(FRESH_MS, p, (q) => this.views.hourly(q, this.ctx.clock.now()));
  }

  monthly(p: UsageParams): Promise<MonthlyEntry[]> {
    return this.answer(MONTHLY_FRESH_MS, p, (q) => this.views.monthly(q));
  }

  models(p: UsageParams): Promise<{ models: ModelEntry[]; totalCost: number }> {
    return this.answer(FRESH_MS, p, (q) => this.views.models(q));
  }

  insights(p: UsageParams) {
    return this.answer(FRESH_MS, p, (q) => this.views.insights(q));
  }

  async sessions(p: UsageParams, limit: number, offset: number, select: SessionQuery = {}): Promise<{ sessions: SessionEntry[]; total: number; limit: number; offset: number }> {
    const all = await this.answer(FRESH_MS, p, (q) => selectSessions(this.views.sessions(q), select, select.project !== undefined ? this.views.sessionProjects(q) : undefined));
    return { sessions: all.slice(offset, offset + limit), total: all.length, limit, offset };
  }

  projects(p: UsageParams): Promise<ProjectEntry[]> {
    return this.answer(FRESH_MS, p, (q) => this.views.projects(q));
  }

  /** Which agents were looked for, where, and what was found (decisions §5.1). */
  async agents(): Promise<AgentStatus[]> {
    await this.ensureData(FRESH_MS);
    return agentStatuses(this.ctx, this.store.kept(), this.loader.lastFound);
  }

  /**
   * Waits for an incremental rescan (decisions §5, revised): new files read whole, appended files
   * from their last offset, shrunk or rewritten ones again from the start. `full` drops everything
   * first and waits for a rescan of every file. A failure is a 500.
   */
  async refresh(full = false): Promise<{ timestamp: number }> {
    await this.loaded;
    await this.inflight?.catch(() => undefined);
    if (full) {
      this.store.clear();
      this.lastFetch = null;
    }
    try {
      await this.sharedScan();
    } catch (err) {
      throw new UsageFetchError(errorMessage(err));
    }
    return { timestamp: this.lastFetch! };
  }

  async status(): Promise<CacheStatus> {
    await this.loaded;
    const progress = this.progress;
    const scan = { scanning: progress !== null, progress: progress === null ? null : { ...progress }, lastError: this.lastError, transcriptsDir: transcriptsDir(this.ctx.paths.agentDir) };
    if (this.lastFetch === null) {
      return { cached: false, lastFetch: null, lastFetchHuman: null, cacheAge: null, cacheAgeHuman: null, files: null, malformedLines: null, oversizedLines: null, ...scan };
    }
    const age = Math.max(0, this.ctx.clock.now() - this.lastFetch);
    return {
      cached: true,
      lastFetch: this.lastFetch,
      lastFetchHuman: new Date(this.lastFetch).toISOString(),
      cacheAge: age,
      cacheAgeHuman: humanAge(age),
      files: this.store.files.size,
      malformedLines: this.store.malformedLines(),
      oversizedLines: this.store.oversizedLines(),
      ...scan,
    };
  }

  /** Resolves when no scan is running (tests). */
  async whenIdle(): Promise<void> {
    await this.loaded;
    await this.inflight?.catch(() => undefined);
    await this.arming;
  }

  /**
   * Starts the disk cache write a scan left waiting now, instead of PERSIST_DELAY_MS later, and
   * resolves once it no longer needs this thread for a while: the snapshot is planned here (it
   * needs the objects in memory) and its bytes are handed to the thread pool. What this thread
   * does next overlaps the writing (the terminal computes and prints its answer meanwhile); the
   * write's end is `whenPersisted`, and `stop` waits for it. Resolves at once when nothing waits.
   */
  startPersist(): Promise<void> {
    this.flushPersist();
    return this.handedOff;
  }

  /** Resolves when the disk cache holds the latest scan (tests, shutdown): a write still waiting starts now. */
  whenPersisted(): Promise<void> {
    this.flushPersist();
    return this.persisting;
  }

  private async answer<T>(freshMs: number, p: UsageParams, build: (q: ViewQuery) => T): Promise<T> {
    // The defaults are read first: a stale read answers with the data it found, not with what a
    // background scan it started found while config.yaml was being read.
    const q: ViewQuery = {
      zone: p.tz ?? (await this.zones.current()),
      mode: p.mode ?? (await this.zones.currentMode()),
      since: p.since ?? null,
      until: p.until ?? null,
      agent: p.agent ?? null,
    };
    await this.ensureData(freshMs);
    try {
      return build(q);
    } catch (err) {
      if (err instanceof UsageRangeError) throw err;
      throw new UsageFetchError(errorMessage(err));
    }
  }

  private async ensureData(freshMs: number): Promise<void> {
    await this.loaded;
    const age = this.dataAge(this.ctx.clock.now(), freshMs);
    if (age >= STALE_LIMIT_MS) {
      try {
        await this.sharedScan();
      } catch (err) {
        throw new UsageUnavailableError(errorMessage(err));
      }
    } else if (age >= freshMs && this.inflight === null) {
      this.sharedScan().catch((err) => this.ctx.logger.warn(`usage: background refresh failed: ${errorMessage(err)}`));
    }
  }

  /**
   * How old the data is for a read that wants it younger than `freshMs`. A lastFetch ahead of the
   * clock (clock set back, a disk cache damaged or written elsewhere) has no meaningful age: it
   * counts as just stale, so it is refreshed, or its numbers would freeze until then.
   */
  private dataAge(now: number, freshMs: number): number {
    return this.lastFetch === null ? Infinity : this.lastFetch > now ? freshMs : now - this.lastFetch;
  }

  private sharedScan(): Promise<void> {
    this.inflight ??= this.scan()
      .then(
        () => {
          this.lastError = null;
        },
        (err: unknown) => {
          this.lastError = errorMessage(err);
          throw err;
        },
      )
      .finally(() => {
        this.inflight = null;
        this.progress = null;
      });
    return this.inflight;
  }

  /**
   * Changes whenever an answer could change: new data, a refresh, the default zone. An answer
   * given while this stayed the same is the service's answer for as long as `reuse` allows.
   */
  answersStamp(): string {
    // Asked on every remembered read: build the string only when a part moved.
    if (this.stamp.version !== this.store.version || this.stamp.epoch !== this.zones.epoch) {
      this.stamp = { version: this.store.version, epoch: this.zones.epoch, text: `${this.store.version}:${this.zones.epoch}` };
    }
    return this.stamp.text;
  }

  /**
   * How long the answer just given for `kind` and `p` stays exactly what the service would answer
   * again, so a caller may hand out the same bytes without asking. Stale data and a default zone due
   * for its re-read do not end it: a read would answer the same bytes then too (stale while
   * revalidating), provided the caller reports each answer it hands out (`rememberedRead`), which
   * starts that refresh or re-read; whatever they change moves `answersStamp`. What ends it: the
   * 7-day stale limit (a read then waits for a scan) and, for hourly answers, the current quarter
   * hour (their default window follows the clock; every zone's hours start on a UTC quarter hour).
   * A default-zone answer needs the zone read once. `lasting` says the answer depends on nothing
   * but the data, so it still holds after a restart that restores the same data. null: do not reuse.
   */
  reuse(kind: AnswerKind, p: UsageParams): { until: number; lasting: boolean } | null {
    if (this.lastFetch === null) return null;
    const now = this.ctx.clock.now();
    if (this.lastFetch > now) return null;
    if (p.tz === undefined && !this.zones.known()) return null;
    let until = this.lastFetch + STALE_LIMIT_MS;
    const followsClock = kind === 'hourly';
    if (followsClock) until = Math.min(until, (Math.floor(now / QUARTER_HOUR_MS) + 1) * QUARTER_HOUR_MS);
    // A default-mode answer lasts only while the configured mode is the default one: a restart
    // cannot re-read config.yaml before it serves saved answers.
    const modeLasts = p.mode !== undefined || this.zones.knownMode() === DEFAULT_COST_MODE;
    return until > now ? { until, lasting: p.tz !== undefined && modeLasts && !followsClock } : null;
  }

  /**
   * A remembered answer (see `reuse`) was handed out without asking: start, in the background, what
   * the read would have started — the refresh of stale data, the due re-read of the default zone.
   * Called for every such answer, so it only compares two times unless one is due.
   */
  rememberedRead(): void {
    if (this.inflight === null && this.lastFetch !== null && this.dataAge(this.ctx.clock.now(), FRESH_MS) >= FRESH_MS) this.revalidate();
    this.zones.recheckIfDue();
  }

  /**
   * The disk cache file when it holds exactly the data answers come from now (the last write has
   * finished and nothing changed since), as this service wrote or read it (never a later file
   * another process put at the path), with the lastFetch a start will read from it; else null.
   */
  async diskCacheIdentity(): Promise<(FileIdentity & { lastFetch: number }) | null> {
    this.flushPersist();
    await this.persisting;
    const { version, file, lastFetch } = this.disk;
    if (version !== this.store.version || file === null) return null;
    return { ...file, lastFetch };
  }

  /** What a read would do about the data's age, without a read: load, and refresh in the background if stale. */
  revalidate(): void {
    this.ensureData(FRESH_MS).catch((err) => this.ctx.logger.warn(`usage: refresh failed: ${errorMessage(err)}`));
  }

  /** The transcript files the data comes from, as they were when read (the CLI keeps answers by them). */
  transcriptFiles(): Array<{ path: string; size: number; mtimeMs: number; ino: number }> {
    return [...this.store.files.values()].map(({ path, size, mtimeMs, ino }) => ({ path, size, mtimeMs, ino }));
  }

  /** How the last scan went (files read, bytes, workers used): for the benchmark and tests. */
  lastScan(): ScanReport | null {
    return this.lastReport;
  }

  private async scan(): Promise<void> {
    // Starts on the next turn: a stale read that triggered this answers first.
    const progress = (this.progress = newProgress());
    await yieldToLoop();
    await this.arming; // the watches are complete before the walk that relies on them
    // A disk cache the terminal wrote has no baseline: what it holds was never announced, nor new.
    if (this.announcing && this.seenAnomalies === null && this.store.files.size > 0) await this.announceAnomalies();
    this.lastReport = await this.loader.scan(progress, this.stopping.signal);
    // Once per start, after a scan that changed nothing: the index a disk-cache start skipped,
    // built in steps so that reads answered meanwhile are not held up.
    await this.store.warmIndex(() => yieldToLoop());
    this.lastFetch = this.ctx.clock.now();
    this.ctx.events.emit('usage-refreshed', { timestamp: this.lastFetch });
    if (this.announcing) await this.announceAnomalies();
    this.persist();
    if (this.watching) this.arming = this.loader.armWatches(() => yieldToLoop()).catch((err) => this.ctx.logger.warn(`usage: cannot watch the logs: ${errorMessage(err)}`));
  }

  /** The first scan ever sets the baseline quietly; later scans announce only what is new. */
  private async announceAnomalies(): Promise<void> {
    let found: Anomaly[];
    try {
      found = this.views.insights({ zone: await this.zones.current(), mode: await this.zones.currentMode(), since: null, until: null }).anomalies;
    } catch (err) {
      this.ctx.logger.warn(`usage: anomaly check failed: ${errorMessage(err)}`);
      return;
    }
    const first = this.seenAnomalies === null;
    const seen = (this.seenAnomalies ??= new Set());
    for (const a of found) {
      const id = anomalyId(a);
      if (seen.has(id)) continue;
      seen.add(id);
      if (!first) this.ctx.events.emit('anomaly', { type: a.type, date: a.date, message: a.message });
    }
  }

  /**
   * Writes after each scan that changed the data, one write at a time, on the next turn so the
   * readers waiting for this scan are answered first. Rewriting an unchanged cache only to move
   * its timestamp would cost a full serialisation (and megabytes of disk writes) per minute.
   * A failed write only costs the next start a scan. This thread plans the snapshot; the bytes
   * go out through the thread pool while it does other work (writeFileAtomic), see startPersist.
   */
  private persist(): void {
    if (this.store.version === this.persistedVersion) return;
    this.persistedVersion = this.store.version;
    if (this.persistTimer !== null) return; // the waiting write takes the latest data when it runs
    let done!: () => void;
    const waited = new Promise<void>((resolve) => (done = resolve));
    const write = () => {
      if (this.persistTimer?.write === write) {
        clearTimeout(this.persistTimer.timer);
        this.persistTimer = null;
      }
      done();
    };
    this.persistTimer = { timer: setTimeout(write, PERSIST_DELAY_MS).unref(), write };
    let handedOff!: () => void;
    this.handedOff = new Promise<void>((resolve) => (handedOff = resolve));
    this.persisting = this.persisting
      .then(() => waited)
      .then(() => {
        // What the store holds now: changes made while the write waited are in it.
        const written = this.store.version;
        this.persistedVersion = written;
        const snapshot = {
          lastFetch: this.lastFetch!,
          files: [...this.store.files.values()],
          kept: this.store.keptLists(),
          seenAnomalies: this.seenAnomalies === null ? null : [...this.seenAnomalies],
        };
        return writeCacheFile(this.ctx.paths.usageCache, snapshot, this.identity, this.pricing.tableId, handedOff).then((file) => {
          this.disk = { version: written, lastFetch: snapshot.lastFetch, file };
          // The packs spared this write a re-pack (a cold scan's: the threads made them); held on,
          // ~180 MB at 1 GiB of logs let V8 put off full collections until their marking overlapped
          // every other refresh (p95 23 -> 126 ms on the bench). Later writes pack afresh (files only
          // packed keep theirs: their batch is their requests).
          this.store.releasePacks();
        });
      })
      .catch((err) => this.ctx.logger.warn(`usage: cannot write the disk cache: ${errorMessage(err)}`))
      .finally(() => handedOff()); // a write that failed before its bytes went out (the plan, the open)
  }

  /** Starts the waiting disk cache write now (a quit, a caller that needs the file). */
  private flushPersist(): void {
    this.persistTimer?.write();
  }

  private async loadDiskCache(): Promise<void> {
    try {
      const read = await readCacheFile(this.ctx.paths.usageCache, this.identity, this.pricing.tableId);
      if (read === 'missing') return;
      const { snapshot } = read;
      if (snapshot === null) {
        this.ctx.logger.warn('usage: ignoring an unusable disk cache; the next scan rebuilds it');
        return;
      }
      this.store.restore(snapshot.files, snapshot.kept);
      this.persistedVersion = this.store.version;
      this.disk = { version: this.store.version, lastFetch: snapshot.lastFetch, file: read.file };
      this.lastFetch = snapshot.lastFetch;
      this.seenAnomalies = snapshot.seenAnomalies === null ? null : new Set(snapshot.seenAnomalies);
    } catch (err) {
      this.ctx.logger.warn(`usage: cannot read the disk cache: ${errorMessage(err)}`);
    }
  }
}
