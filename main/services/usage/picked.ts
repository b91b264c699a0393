import path from 'node:path';
import type { AgentLoader } from './agents/agent.js';
import { appendAll } from './append-all.js';
import type { FoundFile } from './discover.js';
import type { TaggedFile } from './early-reads.js';

/** An enabled agent: its loader and dirs, with the roots to walk and its exact files (splitRoots). */
export type AgentPlace = { loader: AgentLoader; dirs: string[]; roots: readonly string[]; exact: readonly string[] };

/** The files of the sources picked so far, one run per source run (the walk of a source, its stores). */
export class Picked {
  readonly runs: TaggedFile[][];
  readonly counts: Map<string, number>;
  readonly exact = new Map<string, Set<string>>();
  /** The paths taken; built only once two sources' places overlap (sources in folders of their own share no path). */
  private seen: Set<string> | null = null;
  private readonly places: string[];

  constructor(claudeFiles: readonly FoundFile[], claudeRoots: readonly string[]) {
    this.runs = [[...claudeFiles]];
    this.counts = new Map([['claude', claudeFiles.length]]);
    this.places = claudeFiles.length === 0 ? [] : [...claudeRoots];
  }

  /**
   * The paths taken so far, to check the next source's files against; null when its places overlap
   * no earlier one and its exact files are not below its own roots.
   */
  seenIfShared(roots: readonly string[], exact: readonly string[]): Set<string> | null {
    const places = [...roots, ...exact];
    const shared = places.some((p) => this.places.some((q) => within(p, q) || within(q, p))) || exact.some((e) => roots.some((r) => within(e, r)));
    if (this.seen === null && shared) {
      this.seen = new Set();
      for (const run of this.runs) for (const f of run) this.seen.add(f.path);
    }
    appendAll(this.places, places);
    return this.seen;
  }
}

/**
 * True when none of `exact` (an agent's stores and named files) is, or is below or above, one of
 * `places` (every other source's roots and exact files, and the agent's own roots): then no other
 * source can list the same path, and the file may go to the threads before the walks (usage-loader.ts).
 */
export function standsAlone(exact: readonly string[], places: readonly string[]): boolean {
  return exact.every((e) => places.every((p) => !within(e, p) && !within(p, e)));
}

/** `file` is `dir` or below it. */
function within(file: string, dir: string): boolean {
  return file === dir || file.startsWith(dir.endsWith(path.sep) ? dir : dir + path.sep);
}
