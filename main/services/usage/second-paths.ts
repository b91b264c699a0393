import type { FileRead } from './scan-file.js';

/**
 * `reads` (in path order, `sources[i]` the agent of `reads[i]`, undefined for Claude) without each
 * read of a file an earlier read of the same source already read: a hard link, or a file reached
 * both through a link and directly; the first in path order stays. The walk drops these by their
 * stat, but a cold scan does not stat most files: it learns device and inode from the reads.
 *
 * Only two kinds of file can have been found twice: one with more than one hard link, and one the
 * walk stat'ed (`statted[i]`: a link's target among them; folders reached twice are walked once).
 * So only their inodes are looked at again, not those of the 140 000 others.
 */
export function dropSecondPaths(reads: readonly FileRead[], sources: ReadonlyArray<string | undefined>, statted: readonly boolean[]): { kept: FileRead[]; dropped: number[] } {
  const suspects = new Set<number>();
  for (let i = 0; i < reads.length; i++) if (reads[i]!.nlink > 1 || statted[i]) suspects.add(reads[i]!.ino);
  if (suspects.size === 0) return { kept: [...reads], dropped: [] };
  const kept: FileRead[] = [];
  const dropped: number[] = [];
  const seen = new Set<string>();
  for (let i = 0; i < reads.length; i++) {
    const read = reads[i]!;
    if (suspects.has(read.ino)) {
      const key = `${sources[i] ?? ''}\0${read.dev}\0${read.ino}`;
      if (seen.has(key)) {
        dropped.push(i);
        continue;
      }
      seen.add(key);
    }
    kept.push(read);
  }
  return { kept, dropped };
}
