import path from 'node:path';
import { WatchedTree, type TreeLook, type WatchBudget } from './watched-tree.js';

/**
 * At most this many directories are watched per process: an inotify watch is a per-user kernel
 * budget (often 8 192 to a few hundred thousand) that other programs need too. Past it a tree is
 * walked on every scan, as without watching.
 */
export const MAX_WATCHED_DIRS = 60_000;

/** One source of files a scan reads: Claude Code's transcripts, or one agent's roots. */
export interface Source {
  key: string;
  roots: readonly string[];
  accept: (file: string) => boolean;
  /** A root that cannot be listed: with this, the source is empty for this scan; without, the scan fails. */
  onError?: (err: unknown) => void;
}

/**
 * The watched trees of a loader, one per source (usage-loader.ts). A source whose roots changed
 * (config.yaml, an override variable, a folder that appeared) gets a new tree; a tree no source
 * uses any more is closed. Sources whose roots overlap are not watched (a file would belong to
 * two trees; the walk's rule, first source wins, needs the whole list).
 */
export class WatchedDiscovery {
  private readonly trees = new Map<string, WatchedTree>();
  private readonly budget: WatchBudget = { left: MAX_WATCHED_DIRS };

  constructor(private readonly now: () => number = Date.now) {}

  /** Each source's look, in order; null when the sources overlap (then the loader walks as without watching). */
  async look(sources: readonly Source[]): Promise<Array<{ tree: WatchedTree; look: TreeLook }> | null> {
    if (overlapping(sources)) {
      this.close();
      return null;
    }
    const wanted = new Set(sources.map((s) => s.key));
    for (const [key, tree] of this.trees) {
      if (!wanted.has(key)) {
        tree.close();
        this.trees.delete(key);
      }
    }
    const out: Array<{ tree: WatchedTree; look: TreeLook }> = [];
    for (const source of sources) {
      let tree = this.trees.get(source.key);
      if (tree !== undefined && !sameRoots(tree.roots, source.roots)) {
        tree.close();
        tree = undefined;
      }
      if (tree === undefined) {
        tree = new WatchedTree([...source.roots], source.accept, this.budget, this.now);
        this.trees.set(source.key, tree);
      }
      try {
        out.push({ tree, look: await tree.look() });
      } catch (err) {
        if (source.onError === undefined) throw err;
        source.onError(err);
        tree.close();
        this.trees.delete(source.key); // walked afresh next time
        out.push({ tree: new WatchedTree([...source.roots], source.accept, this.budget, this.now), look: { full: true, files: [], removed: [], membership: true } });
      }
    }
    return out;
  }

  /** Watches every tree's directories (after a scan, off the answer path). */
  async arm(pause: () => Promise<void>): Promise<void> {
    for (const tree of [...this.trees.values()]) await tree.arm(pause);
  }

  close(): void {
    for (const tree of this.trees.values()) tree.close();
    this.trees.clear();
  }
}

function sameRoots(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((r, i) => r === b[i]);
}

function overlapping(sources: readonly Source[]): boolean {
  const roots = sources.flatMap((s) => s.roots.map((r) => ({ key: s.key, root: r.endsWith(path.sep) ? r : r + path.sep })));
  for (const a of roots) for (const b of roots) if (a.key !== b.key && b.root.startsWith(a.root)) return true;
  return false;
}
