import { DedupIndex, fileWinners } from './dedupe.js';
import type { Pricing } from './pricing.js';
import type { PackedRun } from './packed-batch.js';
import type { FileRead } from './scan-file.js';
import type { UsageRecord } from './types.js';
import { appendAll } from './append-all.js';
import { PackedRead, keptCount, keptRecords, type KeptList } from './packed-read.js';

/** What is known about one transcript: where the next read starts and the requests it holds. */
export interface FileState {
  path: string;
  size: number;
  mtimeMs: number;
  ino: number;
  offset: number;
  fingerprint: string;
  /** The file's own winner per key (the global winner is always one of them), plus unkeyed lines. */
  records: UsageRecord[];
  tail: UsageRecord[];
  malformed: number;
  tailMalformed: number;
  /** Lines over the scanner's bound, skipped (scan-file.ts). */
  oversized: number;
  /** The key of the flags an agent file was read with (agent-flags.ts); '' for none (every Claude transcript). */
  flagsKey: string;
  /**
   * Where `records` and `tail` sit packed (a scan worker's batch, or a disk cache segment), for as
   * long as they are exactly the records packed there: the disk cache writes those bytes as they
   * are. Absent once they differ (an append, a re-price) or when they were never packed.
   */
  packed?: PackedRun;
}

/** Requests indexed between two pauses of warmIndex(): a few milliseconds of work. */
const WARM_STEP = 10_000;

/**
 * Per-file requests (priced and reduced to per-file winners by the reader) and the global
 * de-duplicated set. Appends and new files merge into the index; a removed, replaced or shrunk
 * file, or a dropped tail line, rebuilds it from all files. After a restore from the disk cache
 * the kept set comes from the cache and the index is built only when the next scan needs it, so
 * a start-up answer does not wait for a hundred thousand map inserts. Each file's kept requests
 * are remembered, so after an append only the files it touched are checked against the index again
 * (an index lookup per request of gigabytes of logs was a third of a refresh).
 */
export class UsageStore {
  readonly files = new Map<string, FileState>();
  /** Bumped on every change, so derived answers know when to recompute. */
  version = 0;
  private index: DedupIndex | null = new DedupIndex();
  private keptRecords: UsageRecord[] | null = null;
  /** Per file, its requests the index keeps; valid for the current index, absent = recompute. */
  private readonly keptByFile = new Map<string, KeptList>();
  /**
   * The last keptGroups() answer, each file's list at its position in `files`, and the files
   * whose list may have changed since ('all': build it again). With 140 000 files a pass over
   * every file's list per refresh cost more than the refresh's own work. `at` is null until a
   * change needs it (made then, before any file comes or goes): a cold CLI run never does.
   */
  private groups: { lists: KeptList[]; at: Map<string, number> | null; dirty: Set<string> | 'all' } | null = null;

  constructor(private readonly pricing: Pricing) {}

  apply(reads: readonly FileRead[], removed: readonly string[]): void {
    if (reads.length === 0 && removed.length === 0) return; // nothing changed: answers stay valid
    let rebuild = removed.length > 0;
    if (removed.length > 0 || reads.some((r) => !this.files.has(r.path))) this.groupsChanged('all');
    const added: UsageRecord[] = [];
    const touched = new Set<string>();
    for (const path of removed) this.files.delete(path);
    for (const read of reads) {
      const before = this.files.get(read.path);
      const appended = before !== undefined && read.start > 0;
      // A file read again whole only needs the index rebuilt when its old requests were in it: an
      // agent file (agents/agent-file.ts, read whole on every change) without keys is just replaced.
      if (before && (before.tail.length > 0 || (!appended && before.records.some((r) => r.key !== null)))) rebuild = true;
      this.files.set(read.path, appended ? appendedState(before, read) : newFileState(read));
      appendAll(added, read.records, read.tail);
      touched.add(read.path);
    }
    if (rebuild || this.index === null) this.rebuildIndex();
    else {
      // A new winner changes the kept list of its own file and of the file whose request it beat.
      for (const r of added) {
        if (r.key === null) continue; // always kept; the index has nothing to decide
        const beaten = this.index.add(r);
        if (beaten !== null) touched.add(beaten.file);
      }
      for (const path of touched) this.keptByFile.delete(path);
      this.groupsChanged(touched);
    }
    this.keptRecords = null;
    this.version++;
  }

  /**
   * Takes a cold scan's reads (in path order, as apply() would have them) into this empty store,
   * with the de-duplication index its stage built while the threads read (cold-stage.ts); null:
   * build it here (reads were dropped from the stage, so its index holds requests of none).
   */
  adopt(reads: readonly FileRead[], index: DedupIndex | null, keepsAll: ReadonlySet<FileRead> = new Set(), keepsNone: ReadonlySet<FileRead> = new Set()): void {
    if (this.files.size > 0) throw new Error('a cold scan is adopted only into an empty store');
    if (reads.length === 0) return; // nothing was read: answers stay valid
    this.groupsChanged('all');
    const states = reads.map(adoptedState);
    for (const f of states) this.files.set(f.path, f);
    // What beat a request of a `keepsNone` read may be of a read dropped here (a second path): not sure then.
    if (index === null) [index, keepsNone] = [this.rebuildIndex(), new Set()];
    this.index = index;
    this.keptByFile.clear();
    if (this.files.size === states.length) {
      // The answer of keptGroups() made here, in the same file order: a read the stage saw keep all
      // its records keeps them as they are, one it saw lose all keeps none (keptIn's answers,
      // without looking each request up).
      const lists = states.map((f, i) => {
        const read = reads[i]!;
        const mine = f instanceof PackedRead && f.onlyPacked ? f : keepsAll.has(read) ? f.records : keepsNone.has(read) ? [] : keptIn(f, index);
        this.keptByFile.set(f.path, mine);
        return mine;
      });
      this.groups = { lists, at: null, dirty: new Set() };
    }
    this.keptRecords = null;
    this.version++;
  }

  /**
   * Restores files read earlier (disk cache). `kept` is the cache's kept list per file (in the
   * order of `states`), valid only when the costs were computed with this price table; otherwise
   * everything is priced again and de-duplicated again (cost breaks ties).
   */
  restore(states: readonly FileState[], kept: readonly UsageRecord[][] | null): void {
    this.files.clear();
    this.keptByFile.clear();
    this.groupsChanged('all');
    this.keptRecords = null;
    for (const s of states) this.files.set(s.path, s);
    if (kept === null) {
      for (const s of states) {
        s.packed = undefined; // the packed costs are the old table's
        for (const r of s.records) r.cost = this.pricing.costOf(r);
        for (const r of s.tail) r.cost = this.pricing.costOf(r);
      }
      this.rebuildIndex();
    } else {
      if (kept.length !== states.length) throw new Error('a kept list per restored file expected');
      this.index = null;
      states.forEach((s, i) => this.keptByFile.set(s.path, kept[i]!));
    }
    this.version++;
  }

  clear(): void {
    this.files.clear();
    this.keptByFile.clear();
    this.groupsChanged('all');
    this.index = new DedupIndex();
    this.keptRecords = null;
    this.version++;
  }

  /** The de-duplicated requests every aggregate starts from, in file order. */
  kept(): UsageRecord[] {
    if (this.keptRecords === null) {
      const kept: UsageRecord[] = [];
      for (const mine of this.keptLists()) for (const r of keptRecords(mine)) kept.push(r);
      this.keptRecords = kept;
    }
    return this.keptRecords;
  }

  /** keptLists() with every list an array (a PackedRead's requests are made then). */
  keptGroups(): UsageRecord[][] {
    return this.keptLists().map(keptRecords);
  }

  /**
   * The kept requests of each file, in file order. A file's list is the same array (or PackedRead)
   * until the file or the winner of one of its requests changes, so aggregates can be remembered
   * per list.
   */
  keptLists(): KeptList[] {
    const g = this.groups;
    if (g !== null && g.dirty !== 'all' && this.index !== null) {
      for (const path of g.dirty) g.lists[g.at!.get(path)!] = this.keptOf(this.files.get(path)!); // `at` made by groupsChanged()
      g.dirty.clear();
      return g.lists.slice(); // a copy: a disk cache write may still be reading an earlier answer
    }
    const lists: KeptList[] = [];
    // Positions made here, with the lists: the next refresh's change finds its file at once. Left
    // to that change (as after a cold scan's adopt()), 140 000 map entries went into a timed
    // refresh after every full rebuild (p95 of the bench's refresh 29 -> 53 ms).
    const at = new Map<string, number>();
    for (const f of this.files.values()) {
      at.set(f.path, lists.length);
      let mine = this.keptOf(f);
      // A list equal to the one this file had stays that array (after an index rebuild, say for a
      // file removed), so sums remembered per list (daily-by-file.ts) stay valid.
      const i = g?.at?.get(f.path);
      const old = i === undefined ? undefined : g!.lists[i];
      if (old !== undefined && old !== mine && sameRecords(old, mine)) {
        mine = old;
        this.keptByFile.set(f.path, old);
      }
      lists.push(mine);
    }
    this.groups = { lists, at, dirty: new Set() };
    return lists.slice();
  }

  private keptOf(f: FileState): KeptList {
    let mine = this.keptByFile.get(f.path);
    if (mine === undefined) {
      mine = keptIn(f, this.index ?? this.rebuildIndex());
      this.keptByFile.set(f.path, mine);
    }
    return mine;
  }

  /** Each file's position in `files` (and in keptGroups()'s answer). */
  private positions(): Map<string, number> {
    const at = new Map<string, number>();
    for (const path of this.files.keys()) at.set(path, at.size);
    return at;
  }

  /** Files whose kept list may have changed ('all': files came or went, or every list did). Called before they do. */
  private groupsChanged(paths: Iterable<string> | 'all'): void {
    const g = this.groups;
    if (g === null || g.dirty === 'all') return;
    g.at ??= this.positions(); // while `files` still holds the files the lists are of
    if (paths === 'all') g.dirty = 'all';
    else for (const p of paths) g.dirty.add(p);
  }

  /**
   * Builds the index a restore from the disk cache skipped. Run after a scan that found nothing
   * new (off the answer path), so the first append after a start merges into an index instead of
   * waiting for all of it to be built. The cache's kept lists are checked against the index; equal
   * lists stay the same arrays, so sums remembered per list stay valid. `pause` runs between
   * steps of about WARM_STEP requests: at 1 GiB of logs the whole build held the event loop for
   * ~50 ms, and every request queued behind it. Reads in between keep using the restored lists;
   * the index and any corrected lists are put in place together at the end.
   */
  async warmIndex(pause: () => Promise<void> = async () => undefined, stepSize = WARM_STEP): Promise<void> {
    if (this.index !== null) return;
    const version = this.version;
    let step = 0;
    /** Counts `done` requests; after about stepSize, pauses. False once the store moved meanwhile. */
    const stillValid = async (done: number): Promise<boolean> => {
      if ((step += done) < stepSize) return true;
      step = 0;
      await pause();
      return this.version === version && this.index === null;
    };
    const index = new DedupIndex();
    for (const f of this.files.values()) {
      index.addAll(f.records);
      index.addAll(f.tail);
      if (!(await stillValid(f.records.length + f.tail.length))) return;
    }
    const corrected = new Map<string, KeptList>();
    for (const f of this.files.values()) {
      const mine = keptIn(f, index);
      const old = this.keptByFile.get(f.path);
      if (!(old !== undefined && (old === mine || sameRecords(old, mine)))) corrected.set(f.path, mine);
      if (!(await stillValid(keptCount(mine)))) return;
    }
    this.index = index;
    for (const [path, mine] of corrected) this.keptByFile.set(path, mine);
    this.groupsChanged(new Set(corrected.keys()));
    if (corrected.size > 0) {
      this.keptRecords = null;
      this.version++;
    }
  }

  /**
   * Forgets where files' records sit packed (usage-service.ts, after a disk cache write), but for
   * reads only packed: their requests are in that batch and nowhere else, so it is held anyway, and
   * the next write takes their bytes as they are instead of making their requests to pack them again.
   */
  releasePacks(): void {
    for (const f of this.files.values()) if (!(f instanceof PackedRead && f.onlyPacked)) f.packed = undefined;
  }

  malformedLines(): number {
    let n = 0;
    for (const f of this.files.values()) n += f.malformed + f.tailMalformed;
    return n;
  }

  oversizedLines(): number {
    let n = 0;
    for (const f of this.files.values()) n += f.oversized;
    return n;
  }

  private rebuildIndex(): DedupIndex {
    this.keptByFile.clear();
    this.groupsChanged('all');
    const index = new DedupIndex();
    for (const f of this.files.values()) {
      if (f instanceof PackedRead && f.onlyPacked) continue; // no keys: nothing to decide, and its requests stay packed
      index.addAll(f.records);
      index.addAll(f.tail);
    }
    this.index = index;
    return index;
  }
}

/** A file's state after its first (or a whole) read. */
export function newFileState(read: FileRead): FileState {
  return {
    path: read.path,
    size: read.size,
    mtimeMs: read.mtimeMs,
    ino: read.ino,
    offset: read.offset,
    fingerprint: read.fingerprint,
    records: read.records,
    tail: read.tail,
    malformed: read.malformed,
    tailMalformed: read.tailMalformed,
    oversized: read.oversized,
    flagsKey: read.flagsKey ?? '',
    packed: read.packed,
  };
}

/**
 * A cold scan's read taken as its file's state as it is, not copied: 140 000 copies were that many
 * objects more for the young generation to carry. Its fields beyond FileState's (dev, nlink,
 * start) are never read from a state, and a read is not used again once adopted.
 */
function adoptedState(read: FileRead): FileState {
  read.flagsKey ??= '';
  return read as Omit<FileRead, 'flagsKey'> & { flagsKey: string };
}

/** A file's state after `read` appended to it (read from its last offset). */
function appendedState(before: FileState, read: FileRead): FileState {
  return {
    ...newFileState(read),
    records: fileWinners([...before.records, ...read.records]),
    // The earlier winners merged with the new ones: no longer the records packed.
    packed: undefined,
    malformed: before.malformed + read.malformed,
    oversized: before.oversized + read.oversized,
  };
}

/** Two lists of the very same request objects (a PackedRead only packed is equal to itself only). */
function sameRecords(a: KeptList, b: KeptList): boolean {
  if (a === b) return true;
  if (a instanceof PackedRead || b instanceof PackedRead) return false;
  return a.length === b.length && a.every((r, k) => r === b[k]);
}

/**
 * The requests of one file that the index keeps, in file order: the file's own records array when
 * it keeps them all and has no tail (every request of most agents' files, which have no keys), so
 * a million requests are not copied into lists of their own; a PackedRead only packed keeps them
 * all (none has a key) and is its own list. Neither array is ever changed in place (an append
 * makes a new records array), so sharing it is safe.
 */
function keptIn(f: FileState, index: DedupIndex): KeptList {
  if (f instanceof PackedRead && f.onlyPacked) return f;
  if (f.tail.length === 0 && f.records.every((r) => index.keeps(r))) return f.records;
  const mine: UsageRecord[] = [];
  for (const r of f.records) if (index.keeps(r)) mine.push(r);
  for (const r of f.tail) if (index.keeps(r)) mine.push(r);
  return mine;
}
