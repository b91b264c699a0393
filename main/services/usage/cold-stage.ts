import { DedupIndex } from './dedupe.js';
import { PackedRead } from './packed-read.js';
import type { FileRead } from './scan-file.js';
import type { UsageRecord } from './types.js';

/**
 * A cold scan's reads, gathered as the scan workers answer: each read is kept by its path and its
 * keyed requests enter the de-duplication index while the threads still read (the main thread
 * waits for them then), instead of all 1.5 M requests of a gigabyte after the last answer. The
 * loader puts the reads in path order from here once the scan is complete and the store adopts
 * them with this index (UsageStore.adopt); a scan that fails or is stopped drops it, and the store
 * never saw any of it.
 */
export class ColdStage {
  readonly reads = new Map<string, FileRead>();
  /** Holds the keyed requests only: an unkeyed one is always kept, the index has nothing to decide. */
  readonly index = new DedupIndex();
  /**
   * Reads without a tail none of whose requests lost to another so far: each keeps all its records
   * (agents' files read in this thread, which have no keys, and every keyed one whose requests are
   * all winners; a scan thread's read without keys stays packed and keeps all by that, packed-read.ts).
   * Known from the index's answers as requests enter it, so the store need not look each keyed
   * request up again to find a file's kept list.
   */
  readonly keepsAll = new Set<FileRead>();
  /** Reads all of whose requests lost to others (OpenCode's message files beside its database): each keeps none. */
  readonly keepsNone = new Set<FileRead>();
  /** Per read with a request that lost, how many did (a request loses once: it never wins again). */
  private readonly losses = new Map<FileRead, number>();
  private lostTrack = true;

  add(reads: readonly FileRead[]): void {
    for (const read of reads) {
      const staged = this.reads.size;
      this.reads.set(read.path, read);
      if (this.reads.size === staged) this.untrackLosses(); // a path read again: whose request lost is not sure
      // A read only packed keeps all by what it is (no keys, no tail): it needs neither the set nor the index.
      if (read instanceof PackedRead && read.onlyPacked) continue;
      if (read.tail.length === 0) this.keepsAll.add(read);
      for (const r of read.records) if (r.key !== null) this.lost(read, r, this.index.offer(r));
      for (const r of read.tail) if (r.key !== null) this.lost(read, r, this.index.offer(r));
    }
  }

  /** `loser` is not kept now: `r` of `read` itself, or an earlier winner of a read staged before. */
  private lost(read: FileRead, r: UsageRecord, loser: UsageRecord | null): void {
    if (loser === null) return;
    // A request's file is its read's path (UsageStore.apply relies on it for a beaten winner too).
    const owner = loser === r ? read : this.reads.get(loser.file);
    if (owner === undefined) {
      // never expected: it may be any keyed one
      for (const k of this.keepsAll) if (k.records.some((x) => x.key !== null)) this.keepsAll.delete(k);
      this.untrackLosses();
      return;
    }
    this.keepsAll.delete(owner);
    if (!this.lostTrack) return;
    const lost = (this.losses.get(owner) ?? 0) + 1;
    this.losses.set(owner, lost);
    if (lost === owner.records.length + owner.tail.length) this.keepsNone.add(owner);
  }

  private untrackLosses(): void {
    this.keepsNone.clear();
    this.losses.clear();
    this.lostTrack = false;
  }
}
