import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { writeFileAtomic } from '../../../infra/atomic-write.js';
import type { Logger } from '../../../infra/logger.js';
import { formatErrorLog, type RecordLike } from './error-log.js';

/**
 * Writes `error-<path>-<YYYY-MM-DDTHHMMSS>-<8 hex>.log` into the engine's logs directory and keeps
 * the newest `maxFiles` (CLIProxyAPI's naming and retention, reference §3.3/3.4). Writes run one
 * after another off the request path; a failing disk is logged, never thrown at a client.
 */
export class ErrorLogWriter {
  private queue: Promise<void> = Promise.resolve();
  /** Write order of our own files: file mtimes are only as fine as the kernel tick, so ties happen. */
  private readonly sequence = new Map<string, number>();
  private written = 0;

  constructor(
    private readonly dir: string,
    private readonly maxFiles: number,
    private readonly logger: Logger,
  ) {}

  /** Queues one log; the promise settles when it is on disk and old files are pruned. */
  write(record: RecordLike, pathname: string): Promise<void> {
    const name = errorLogName(pathname, new Date(record.startedAt), randomBytes(4).toString('hex'));
    const text = formatErrorLog(record);
    this.queue = this.queue
      .then(async () => {
        await writeFileAtomic(path.join(this.dir, name), text, { mode: 0o600, dirMode: 0o700 });
        this.sequence.set(name, ++this.written);
        await this.prune();
      })
      .catch((err: unknown) => this.logger.warn(`cannot write error log ${name}: ${(err as Error).message}`));
    return this.queue;
  }

  private async prune(): Promise<void> {
    const names = (await fs.readdir(this.dir)).filter(isErrorLogName);
    if (names.length <= this.maxFiles) return;
    const stats = await Promise.all(names.map(async (n) => ({ n, m: (await fs.stat(path.join(this.dir, n)).catch(() => null))?.mtimeMs ?? 0, seq: this.sequence.get(n) ?? 0 })));
    stats.sort((a, b) => b.m - a.m || b.seq - a.seq || b.n.localeCompare(a.n));
    for (const old of stats.slice(this.maxFiles)) {
      await fs.rm(path.join(this.dir, old.n), { force: true });
      this.sequence.delete(old.n);
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
      .replace(/^-|-$/g, '') || 'root';
  const p = (n: number) => String(n).padStart(2, '0');
  const stamp = `${at.getFullYear()}-${p(at.getMonth() + 1)}-${p(at.getDate())}T${p(at.getHours())}${p(at.getMinutes())}${p(at.getSeconds())}`;
  return `error-${slug}-${stamp}-${id}.log`;
}
