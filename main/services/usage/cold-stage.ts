import { DedupIndex } from './dedupe.js';
import type { FileRead } from './scan-file.js';
import { newFileState, type FileState } from './usage-store.js';

/**
 * A cold scan's files, put together as the scan workers answer: each read becomes its file's
 * state and its keyed requests enter the de-duplication index while the threads still read (the
 * main thread waits for them then), instead of all 1.5 M requests of a gigabyte after the last
 * answer. The store adopts it once the scan is complete (UsageStore.adopt), in path order; a
 * scan that fails or is stopped drops it, and the store never saw any of it.
 */
export class ColdStage {
  readonly states = new Map<string, FileState>();
  readonly index = new DedupIndex();

  add(reads: readonly FileRead[]): void {
    for (const read of reads) {
      this.states.set(read.path, newFileState(read));
      this.index.addAll(read.records);
      this.index.addAll(read.tail);
    }
  }
}
