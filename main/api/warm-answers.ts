import fs from 'node:fs/promises';
import { writeFileAtomic } from '../infra/atomic-write.js';
import { errorMessage, identityKey, isNotFound, sameIdentity, statIdentity, type FileIdentity } from '../infra/file-stat.js';
import { isFiniteNumber, isRecord } from '../infra/json-checks.js';
import type { Logger } from '../infra/logger.js';
import { STALE_LIMIT_MS } from '../services/usage/freshness.js';
import type { HotAnswers, StampSource } from './hot-answers.js';

/** The usage disk cache as a file on disk: which bytes, and the scan they hold. */
export interface DiskCacheIdentity extends FileIdentity {
  lastFetch: number;
}

/** What the usage service tells about its disk cache. */
export interface DiskCacheSource extends StampSource {
  /** The disk cache's identity when it holds exactly the data answers come from now; else null. */
  diskCacheIdentity(): Promise<DiskCacheIdentity | null>;
}

const FORMAT = 'switchboard-usage-answers';
const VERSION = 2;
/** The dashboard asks a handful of views per zone; this bounds a file written every half minute. */
const MAX_FILE_BYTES = 4 << 20;
export const SAVE_EVERY_MS = 30_000;

/**
 * The usage answers the API gave for the data in the usage disk cache, saved beside it, so the next
 * start answers the dashboard's first reads from them while it loads its modules and the cache
 * (about a second for gigabytes of logs). They are used only when the cache file is still the one
 * they were computed from (same size, mtime and inode: every write replaces the file) and its data
 * is younger than the 7-day stale limit, and only until the app runs; that is exactly the
 * stale-while-revalidate answer the service would give from that cache.
 */
export class WarmAnswers {
  private savedKey = '';
  private timer: NodeJS.Timeout | null = null;
  private saving: Promise<void> = Promise.resolve();

  /**
   * @param build what else the answers depend on besides the data: the app's version (its
   *   aggregation code), the price table's digest and the disk cache's format version (how the
   *   data was counted). Saved answers of another build are not used.
   */
  constructor(
    private readonly file: string,
    private readonly cacheFile: string,
    private readonly build: string,
    private readonly logger: Logger,
    /** config.yaml: an answer for the default cost mode is not used once it changed (edited while the app was closed). */
    private readonly configFile?: string,
  ) {}

  /** Puts the saved answers into `hot` (served until it is attached to the service); how many. */
  async load(hot: HotAnswers, now: number): Promise<number> {
    const saved = await this.read();
    if (saved === null || saved.build !== this.build) return 0;
    const age = now - saved.cache.lastFetch;
    if (age < 0 || age >= STALE_LIMIT_MS || !(await this.cacheIs(saved.cache))) return 0;
    if (saved.config !== (await this.configStamp())) return 0;
    for (const [url, body] of saved.answers) hot.remember(url, body, '', Infinity, false);
    return saved.answers.length;
  }

  /** Saves every SAVE_EVERY_MS while answers change, and once more on stop(). */
  start(hot: HotAnswers, usage: DiskCacheSource): void {
    this.timer = setInterval(() => void this.save(hot, usage), SAVE_EVERY_MS);
    this.timer.unref();
  }

  async stop(hot: HotAnswers, usage: DiskCacheSource): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.save(hot, usage);
  }

  /** One save at a time; skipped when nothing changed or the disk cache is behind the answers. */
  save(hot: HotAnswers, usage: DiskCacheSource): Promise<void> {
    this.saving = this.saving.then(() => this.saveNow(hot, usage));
    return this.saving;
  }

  private async saveNow(hot: HotAnswers, usage: DiskCacheSource): Promise<void> {
    const stamp = usage.answersStamp();
    const answers = hot.lastingAnswers();
    const key = `${stamp}\n${answers.map(([url]) => url).join('\n')}`;
    if (answers.length === 0 || key === this.savedKey) return;
    try {
      const cache = await usage.diskCacheIdentity();
      if (cache === null || usage.answersStamp() !== stamp) return;
      let bytes = 0;
      const kept = answers.filter(([url, body]) => (bytes += url.length + body.length) <= MAX_FILE_BYTES);
      const config = await this.configStamp();
      await writeFileAtomic(this.file, JSON.stringify({ format: FORMAT, version: VERSION, build: this.build, cache, config, answers: kept }), { mode: 0o600 });
      this.savedKey = key;
    } catch (err) {
      this.logger.warn(`usage: cannot save answers for the next start: ${errorMessage(err)}`);
    }
  }

  private async read(): Promise<Saved | null> {
    let text: string;
    try {
      text = await fs.readFile(this.file, 'utf8');
    } catch (err) {
      if (!isNotFound(err)) this.logger.warn(`usage: cannot read saved answers: ${errorMessage(err)}`);
      return null;
    }
    try {
      const raw: unknown = JSON.parse(text);
      if (isSaved(raw)) return raw;
    } catch {
      // reported below
    }
    this.logger.warn('usage: ignoring a damaged saved-answers file');
    return null;
  }

  /** config.yaml as a file (size, mtime, inode), '' when there is none. */
  private async configStamp(): Promise<string> {
    if (this.configFile === undefined) return '';
    const s = await statIdentity(this.configFile).catch(() => null);
    return s === null ? '' : identityKey(s);
  }

  private async cacheIs(expected: DiskCacheIdentity): Promise<boolean> {
    const s = await statIdentity(this.cacheFile).catch(() => null);
    return s !== null && sameIdentity(s, expected);
  }
}

/** Hand-checked rather than with zod: this runs before zod is loaded (see runtime.ts). */
interface Saved {
  build: string;
  config: string;
  cache: DiskCacheIdentity;
  answers: Array<[string, string]>;
}

function isSaved(raw: unknown): raw is Saved {
  if (!isRecord(raw) || !isRecord(raw.cache)) return false;
  const c = raw.cache;
  return (
    raw.format === FORMAT &&
    raw.version === VERSION &&
    typeof raw.build === 'string' &&
    typeof raw.config === 'string' &&
    ['size', 'mtimeMs', 'ino', 'lastFetch'].every((k) => isFiniteNumber(c[k])) &&
    Array.isArray(raw.answers) &&
    raw.answers.every((a) => Array.isArray(a) && a.length === 2 && typeof a[0] === 'string' && a[0].startsWith('/api/usage/') && typeof a[1] === 'string')
  );
}
