import { DedupIndex } from './dedupe.js';
import type { FileRead } from './scan-file.js';

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
  /** Reads without a keyed request or a tail (most agents' files): each keeps all its records. */
  readonly keepsAll = new Set<FileRead>();

  add(reads: readonly FileRead[]): void {
    for (const read of reads) {
      this.reads.set(read.path, read);
      let keyed = false;
      for (const r of read.records) {
        if (r.key === null) continue;
        keyed = true;
        this.index.add(r);
      }
      for (const r of read.tail) if (r.key !== null) this.index.add(r);
      if (!keyed && read.tail.length === 0) this.keepsAll.add(read);
    }
  }
}
