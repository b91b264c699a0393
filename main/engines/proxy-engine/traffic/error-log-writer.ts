import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { writeFileAtomic } from '../../../infra/atomic-write.js';
import type { Logger } from '../../../infra/logger.js';
import { formatErrorLog, type RecordLike } from './error-log.js';

/** Kept error logs by default (`proxy.error_log_keep`), and the total size that caps them. */
export const DEFAULT_ERROR_LOG_KEEP = 100;
export const ERROR_LOGS_MAX_BYTES = 50 * 1024 * 1024;
/** Logs waiting to be written beyond which new failures get none (each holds its formatted text). */
const MAX_BACKLOG = 64;

/**
 * Writes `error-<path>-<YYYY-MM-DDTHHMMSS>-<8 hex>.log` into the engine's logs directory and keeps
 * the newest `maxFiles` (CLIProxyAPI's naming, reference §3.3/3.4), and no more than `maxBytes`
 * in all (the newest file is always kept). Writes run one after another off the request path; a
 * failing disk is logged, never thrown at a client.
 */
export class ErrorLogWriter {
  private queue: Promise<void> = Promise.resolve();
  /** Write order of our own files: file mtimes are only as fine as the kernel tick, so ties happen. */
  private readonly sequence = new Map<string, number>();
  private written = 0;
  private pending = 0;
  private skipped = 0;

  constructor(
    private readonly dir: string,
    private readonly maxFiles: number,
    private readonly logger: Logger,
    private readonly maxBytes = ERROR_LOGS_MAX_BYTES,
  ) {}

  /** A fresh file name for a request to `pathname` that started at `startedAt`. */
  nameFor(pathname: string, startedAt: number): string {
    return errorLogName(pathname, new Date(startedAt), randomBytes(4).toString('hex'));
  }

  /** Queues one log; the promise settles when it is on disk and old files are pruned. */
  write(record: RecordLike, pathname: string, name = this.nameFor(pathname, record.startedAt)): Promise<void> {
    const text = formatErrorLog(record);
    this.pending++;
    this.queue = this.queue
      .then(async () => {
        await writeFileAtomic(path.join(this.dir, name), text, { mode: 0o600, dirMode: 0o700 });
        this.sequence.set(name, ++this.written);
        await this.prune();
      })
      .catch((err: unknown) => this.logger.warn(`cannot write error log ${name}: ${(err as Error).message}`))
      .finally(() => {
        this.pending--;
        if (this.pending === 0 && this.skipped > 0) {
          this.logger.warn(`${this.skipped} failed request(s) got no error log: they came faster than the disk could take them`);
          this.skipped = 0;
        }
      });
    return this.queue;
  }

  /**
   * Whether a new failure may have its log: no while MAX_BACKLOG logs wait (a flood of refused
   * requests must not hold megabytes of log text in memory); the caller then names none.
   */
  accepts(): boolean {
    if (this.pending < MAX_BACKLOG) return true;
    this.skipped++;
    return false;
  }

  /** Resolves once every queued log is written (shutdown, tests). */
  idle(): Promise<void> {
    return this.queue;
  }

  private async prune(): Promise<void> {
    const names = (await fs.readdir(this.dir)).filter(isErrorLogName);
    const stats = await Promise.all(
      names.map(async (n) => {
        const stat = await fs.stat(path.join(this.dir, n)).catch(() => null);
        return { n, m: stat?.mtimeMs ?? 0, size: stat?.size ?? 0, seq: this.sequence.get(n) ?? 0 };
      }),
    );
    stats.sort((a, b) => b.m - a.m || b.seq - a.seq || b.n.localeCompare(a.n));
    let total = 0;
    for (const [i, file] of stats.entries()) {
      total += file.size;
      if (i === 0 || (i < this.maxFiles && total <= this.maxBytes)) continue;
      await fs.rm(path.join(this.dir, file.n), { force: true });
      this.sequence.delete(file.n);
    }
  }
}

export function isErrorLogName(name: string): boolean {
  return name.startsWith('error-') && name.endsWith('.log');
}

/** CLIProxyAPI's rule: path without leading `/` and query, separators and `<>:"|?*` and spaces → `-`. */
export function errorLogName(pathname: string, at: Date, id: string): string {
  const slug =
    pathname
      .replace(/^\/+/, '')
      .replace(/[/\\:\s<>"|?*]+/g, '-')
      .replace(/-+/g, '-')
      .replace(/^-|-$/g, '')
      // A scanner's 300-character path must not make the name too long for the file system.
      .slice(0, 100) || 'root';
  const p = (n: number) => String(n).padStart(2, '0');
  const stamp = `${at.getFullYear()}-${p(at.getMonth() + 1)}-${p(at.getDate())}T${p(at.getHours())}${p(at.getMinutes())}${p(at.getSeconds())}`;
  return `error-${slug}-${stamp}-${id}.log`;
}
