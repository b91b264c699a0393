import fs from 'node:fs/promises';
import path from 'node:path';
import type { Logger } from '../../../infra/logger.js';
import { isErrorEntry, type RequestLogEntry } from './request-entry.js';
import { MinuteCounter, selectEntries, type MinuteCount, type RequestFilter } from './request-query.js';

export const REQUEST_LOG_FILE = 'requests.jsonl';
/** The one rotated generation: `requests.jsonl` is renamed to this when it reaches the cap. */
export const REQUEST_LOG_ROTATED = 'requests.1.jsonl';

export interface RequestLogOptions {
  /** Entries kept in memory (newest win). */
  capacity: number;
  /** `requests.jsonl` is rotated once it would grow past this many bytes. */
  maxFileBytes: number;
  /** Lines wait this long for the next ones to join their write (default FLUSH_DELAY_MS). */
  flushDelayMs?: number;
}

/** ~400 bytes a line: about 2 000 entries are 1 MB of memory; 8 MiB is ~20 000 lines per file. */
export const DEFAULT_REQUEST_LOG: RequestLogOptions = { capacity: 2_000, maxFileBytes: 8 * 1024 * 1024 };

/**
 * One write per this many ms at most, however busy the proxy: a write per request (or per event
 * loop turn) costs a thread-pool hop each, which was a tenth of the engine's CPU per request under
 * load (issue 19). A crash loses at most this much of the file; the ring has it all until then.
 */
export const FLUSH_DELAY_MS = 100;

export interface RequestLogListener {
  /** One finished request, and its JSON line (without the newline). */
  entry(entry: RequestLogEntry, line: string): void;
  /** The engine is shutting down. */
  end(): void;
}

/**
 * The engine's request log: a bounded ring in memory (what the management channel answers from),
 * per-minute counts for the last hour, and `logs/requests.jsonl` on disk with one rotated
 * generation, so history survives a stopped engine. Lines are appended in batches off the request
 * path (one write per FLUSH_DELAY_MS at most); a failing disk is logged once, never thrown.
 */
export class RequestLog {
  private readonly ring: Array<RequestLogEntry | undefined>;
  private next = 0;
  private size = 0;
  /** Entries pushed since the engine started; > capacity means the ring has dropped some. */
  private pushed = 0;
  private readonly minutes = new MinuteCounter();
  private lastErrorEntry: RequestLogEntry | null = null;
  /** Numbers from upstreams refused since the engine started (not token counts: 1e308, -5, 2.5). */
  private refused = 0;
  private readonly listeners = new Set<RequestLogListener>();
  private pending: string[] = [];
  private flushTimer: NodeJS.Timeout | undefined;
  private flushing: Promise<void> | undefined;
  private fileBytes: number | undefined;
  /** Kept open between batches: an open and a close per batch cost more than the write. */
  private handle: fs.FileHandle | undefined;
  private diskFailed = false;
  private sequence = 0;
  private readonly idPrefix: string;

  constructor(
    private readonly dir: string,
    private readonly logger: Logger,
    startedAt: number,
    private readonly options: RequestLogOptions = DEFAULT_REQUEST_LOG,
  ) {
    this.ring = new Array<RequestLogEntry | undefined>(options.capacity);
    this.idPrefix = startedAt.toString(36);
  }

  nextId(): string {
    return `${this.idPrefix}-${++this.sequence}`;
  }

  add(entry: RequestLogEntry): void {
    this.ring[this.next] = entry;
    this.next = (this.next + 1) % this.options.capacity;
    this.size = Math.min(this.size + 1, this.options.capacity);
    this.pushed++;
    this.minutes.add(entry);
    if (isErrorEntry(entry)) this.lastErrorEntry = entry;
    const line = JSON.stringify(entry);
    for (const listener of this.listeners) listener.entry(entry, line);
    this.pending.push(line);
    this.scheduleFlush();
  }

  /** Newest first. */
  *newestFirst(): Generator<RequestLogEntry> {
    const cap = this.options.capacity;
    for (let i = 1; i <= this.size; i++) yield this.ring[(this.next - i + cap) % cap]!;
  }

  query(filter: RequestFilter): { requests: RequestLogEntry[]; total: number; wrapped: boolean } {
    return { ...selectEntries(this.newestFirst(), filter), wrapped: this.pushed > this.options.capacity };
  }

  perMinute(now: number): MinuteCount[] {
    return this.minutes.series(now);
  }

  lastError(): RequestLogEntry | null {
    return this.lastErrorEntry;
  }

  countRefused(numbers: number): void {
    this.refused += numbers;
  }

  get refusedNumbers(): number {
    return this.refused;
  }

  /** Calls `listener` with every entry added from now on; returns the unsubscribe. */
  subscribe(listener: RequestLogListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Shutdown: ends every subscriber (their streams must not hold the server open). */
  close(): void {
    for (const listener of this.listeners) listener.end();
    this.listeners.clear();
  }

  /** Resolves once every entry added so far is on disk (or failed to get there): what waits, is written now. */
  async drained(): Promise<void> {
    for (;;) {
      if (this.flushTimer) this.startFlush();
      if (!this.flushing) return;
      await this.flushing;
    }
  }

  /** Writes what is pending and closes the file (shutdown; tests). */
  async closeFileWhenDrained(): Promise<void> {
    await this.drained();
    await this.closeFile();
  }

  private scheduleFlush(): void {
    if (this.flushTimer || this.flushing) return;
    // Unref'd: a log nobody drains does not hold a process open (the engine drains on shutdown).
    this.flushTimer = setTimeout(() => this.startFlush(), this.options.flushDelayMs ?? FLUSH_DELAY_MS).unref();
  }

  private startFlush(): void {
    clearTimeout(this.flushTimer);
    this.flushTimer = undefined;
    if (this.flushing || this.pending.length === 0) return;
    this.flushing = this.flush().finally(() => {
      this.flushing = undefined;
      // Entries added while this write ran wait for the next batch.
      if (this.pending.length > 0) this.scheduleFlush();
    });
  }

  private async flush(): Promise<void> {
    const lines = this.pending;
    this.pending = [];
    try {
      await this.append(`${lines.join('\n')}\n`);
    } catch (err) {
      if (!this.diskFailed) this.logger.warn(`cannot write ${REQUEST_LOG_FILE}: ${(err as Error).message}`);
      this.diskFailed = true;
      this.fileBytes = undefined;
      await this.closeFile();
    }
  }

  private async append(text: string): Promise<void> {
    const file = path.join(this.dir, REQUEST_LOG_FILE);
    const bytes = Buffer.byteLength(text);
    if (this.fileBytes === undefined) {
      await fs.mkdir(this.dir, { recursive: true, mode: 0o700 });
      this.fileBytes = (await fs.stat(file).catch(() => undefined))?.size ?? 0;
    }
    if (this.fileBytes > 0 && this.fileBytes + bytes > this.options.maxFileBytes) {
      await this.closeFile();
      await fs.rename(file, path.join(this.dir, REQUEST_LOG_ROTATED));
      this.fileBytes = 0;
    }
    this.handle ??= await fs.open(file, 'a', 0o600);
    await this.handle.write(text);
    this.fileBytes += bytes;
    this.diskFailed = false;
  }

  private async closeFile(): Promise<void> {
    const handle = this.handle;
    this.handle = undefined;
    await handle?.close().catch(() => undefined);
  }
}
