import type { FileRead } from './scan-file.js';

/**
 * `reads` (in path order, `sources[i]` the agent of `reads[i]`, undefined for Claude) without each
 * read of a file an earlier read of the same source already read: a hard link, or a file reached
 * both through a link and directly; the first in path order stays. The walk drops these by their
 * stat, but a cold scan does not stat files: it learns device and inode from the reads.
 */
export function dropSecondPaths(reads: readonly FileRead[], sources: ReadonlyArray<string | undefined>): { kept: FileRead[]; dropped: number[] } {
  const kept: FileRead[] = [];
  const dropped: number[] = [];
  // By inode alone first (a number key, no string per file); the rare inode met on two devices
  // or in two sources goes to a set of full keys.
  const first = new Map<number, number>();
  let full: Set<string> | null = null;
  for (let i = 0; i < reads.length; i++) {
    const read = reads[i]!;
    const at = first.get(read.ino);
    if (at === undefined) {
      first.set(read.ino, i);
      kept.push(read);
      continue;
    }
    const earlier = reads[at]!;
    if (earlier.dev === read.dev && sources[at] === sources[i]) {
      dropped.push(i);
      continue;
    }
    full ??= new Set();
    full.add(keyOf(earlier, sources[at]));
    const key = keyOf(read, sources[i]);
    if (full.has(key)) dropped.push(i);
    else {
      full.add(key);
      kept.push(read);
    }
  }
  return { kept, dropped };
}

function keyOf(read: FileRead, source: string | undefined): string {
  return `${source ?? ''}\0${read.dev}\0${read.ino}`;
}
