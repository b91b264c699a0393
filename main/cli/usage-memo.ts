import { createHash } from 'node:crypto';
import { writeFileAtomic } from '../infra/atomic-write.js';
import { errorMessage, sameIdentity, statIdentity, type FileIdentity } from '../infra/file-stat.js';
import { isFiniteNumber, isRecord } from '../infra/json-checks.js';
import { readOwnFile } from '../infra/no-follow.js';
import type { FoundFile } from '../services/usage/discover.js';
import { FRESH_MS } from '../services/usage/freshness.js';
import { byPath } from '../services/usage/path-order.js';

/** What an answer was computed from: the disk cache file, its lastFetch, and the transcripts it covers. */
export interface MemoSource {
  /** The usage disk cache file as it was when the answer was computed from it. */
  cache: FileIdentity;
  lastFetch: number;
  /** `filesDigest` of the transcripts the cache holds. */
  files: string;
}

interface Entry {
  key: string;
  source: MemoSource;
  value: unknown;
}

const FORMAT = 'switchboard-usage-cli-answers';
const VERSION = 1;
const MAX_ENTRIES = 16;
/** An answer bigger than this (thousands of sessions) is computed each time rather than kept. */
const MAX_ENTRY_BYTES = 4 << 20;
const MAX_FILE_BYTES = 8 << 20;

/**
 * The terminal's answers, kept beside the usage disk cache so that the next `switchboard usage`
 * with the same report and options prints at once instead of loading the whole cache (a few
 * hundred ms for gigabytes of logs). An answer is reused only when it is exactly what loading would
 * print: the disk cache is the very file it came from (size, mtime, inode: every write replaces
 * the file) and either that cache is still in its fresh minute (the CLI would not refresh it) or
 * the transcripts on disk are the ones it holds (same paths, sizes, mtimes, inodes: a refresh would
 * read nothing). Anything unreadable here only means the slow path.
 */
export class UsageMemo {
  constructor(
    private readonly file: string,
    private readonly cacheFile: string,
  ) {}

  /**
   * The kept answer for `key`, or undefined. `transcripts` lists the transcript files now; it is
   * called only when the cache is past its fresh minute.
   */
  async lookup(key: string, now: number, transcripts: () => Promise<readonly FoundFile[]>): Promise<unknown> {
    try {
      const entry = (await this.read()).find((e) => e.key === key);
      if (!entry) return undefined;
      const cache = await statIdentity(this.cacheFile);
      if (!cache || !sameIdentity(cache, entry.source.cache)) return undefined;
      const age = now - entry.source.lastFetch;
      if (age >= 0 && age < FRESH_MS) return entry.value;
      return filesDigest(await transcripts()) === entry.source.files ? entry.value : undefined;
    } catch {
      return undefined; // a directory that cannot be listed, say: the slow path reports it properly
    }
  }

  /** Keeps `value` for `key` (newest first, bounded); a failure to write costs only speed. */
  async remember(key: string, source: MemoSource, value: unknown, warn: (message: string) => void): Promise<void> {
    try {
      const entry: Entry = { key, source, value };
      if (JSON.stringify(entry).length > MAX_ENTRY_BYTES) return;
      const entries = [entry, ...(await this.read()).filter((e) => e.key !== key)].slice(0, MAX_ENTRIES);
      let text = serialise(entries);
      while (text.length > MAX_FILE_BYTES && entries.length > 1) {
        entries.pop(); // the oldest goes first
        text = serialise(entries);
      }
      await writeFileAtomic(this.file, text, { mode: 0o600, durable: false }); // a damaged file keeps no answer (read())
    } catch (err) {
      warn(`usage: cannot keep the answer for the next run: ${errorMessage(err)}`);
    }
  }

  private async read(): Promise<Entry[]> {
    let bytes: Buffer;
    try {
      bytes = await readOwnFile(this.file, MAX_FILE_BYTES);
    } catch {
      return []; // missing, too big, a link: none kept
    }
    try {
      const raw: unknown = JSON.parse(bytes.toString('utf8'));
      if (isRecord(raw) && raw.format === FORMAT && raw.version === VERSION && Array.isArray(raw.entries)) return raw.entries.filter(isEntry);
    } catch {
      // damaged: none kept
    }
    return [];
  }
}

function serialise(entries: Entry[]): string {
  return JSON.stringify({ format: FORMAT, version: VERSION, entries });
}

/** Text hashed per call of the hash: 140 000 files one update each cost more in calls than in hashing. */
const DIGEST_CHUNK = 1 << 16;

/**
 * One digest for a set of transcript files: paths, sizes, mtimes and inodes, in path order (a
 * line each, hashed in chunks of lines: the same digest as line by line).
 */
export function filesDigest(files: readonly Pick<FoundFile, 'path' | 'size' | 'mtimeMs' | 'ino'>[]): string {
  const hash = createHash('sha1');
  let text = '';
  for (const f of [...files].sort(byPath)) {
    text += `${f.path}\0${f.size}\0${f.mtimeMs}\0${f.ino}\n`;
    if (text.length >= DIGEST_CHUNK) {
      hash.update(text);
      text = '';
    }
  }
  hash.update(text);
  return hash.digest('base64');
}

function isEntry(e: unknown): e is Entry {
  if (!isRecord(e) || typeof e.key !== 'string' || !isRecord(e.source) || !('value' in e)) return false;
  const s = e.source;
  return isRecord(s.cache) && ['size', 'mtimeMs', 'ino'].every((k) => isFiniteNumber((s.cache as Record<string, unknown>)[k])) && isFiniteNumber(s.lastFetch) && typeof s.files === 'string';
}
