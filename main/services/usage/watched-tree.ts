import fs from 'node:fs';
import path from 'node:path';
import { setImmediate as yieldToLoop } from 'node:timers/promises';
import { listDir, statOrNull, type FoundFile } from './discover.js';

/**
 * What a look at one tree found. `full`: `files` is every file below the roots (a walk); else
 * `files` holds only the files that may have changed since the last look (the directories the
 * kernel said changed, stat'ed again) and `removed` the files gone since. `membership` says
 * whether files were added or removed (a loader that chooses among its files must see them all).
 */
export interface TreeLook {
  full: boolean;
  files: FoundFile[];
  removed: string[];
  membership: boolean;
}

/** Directory watches one process may hold (inotify watches are a per-user budget shared with other programs). */
export interface WatchBudget {
  left: number;
}

/** A full walk at least this often even while watched: events can be lost (a kernel queue overflow). */
export const FULL_WALK_EVERY_MS = 10 * 60_000;

interface DirNode {
  /** Accepted files directly in this directory, by full path. */
  files: Set<string>;
  /** Subdirectories, by full path. */
  subdirs: Set<string>;
  watcher: fs.FSWatcher | null;
}

/** Changes the watchers reported and the next look has not handled yet: per directory, the names (null: any). */
type Pending = Map<string, Set<string> | null>;

/**
 * The files below some roots (one agent's, or Claude Code's), walked once and then kept up to
 * date from directory watches (`fs.watch` on each directory, not recursive: Node 20's recursive
 * mode on Linux is itself a walk), so a refresh stats only what the kernel said changed instead
 * of every file. Watching is armed after a walk (`arm`, in steps, off any answer's path); the
 * walk after arming is full (changes between the first walk and the watches would be missed
 * otherwise); from then on a look is incremental. It falls back to a full walk, for good or for
 * one look, when it cannot be sure: a symlink below the roots (its target is not watched), a
 * watcher error, a root that appeared or vanished, the watch budget exhausted, or FULL_WALK_EVERY_MS
 * since the last walk.
 */
export class WatchedTree {
  private dirs = new Map<string, DirNode>();
  private files = new Map<string, FoundFile>();
  /** `dev:ino` of each known file, to skip a second name for it (a hard link), as the walk does. */
  private inodes = new Map<string, string>();
  private ids = new Map<string, string>();
  private pending: Pending = new Map();
  /** Roots missing at the last walk: one appearing needs a walk (nothing watches its parent). */
  private missingRoots: string[] = [];
  /** Watches are set on every directory and a walk has run since: looks may be incremental. */
  private live = false;
  private armed = false;
  /** Watching is not possible for this tree (symlinks, errors, budget): every look walks. */
  private unwatchable = false;
  private lastWalk = 0;

  constructor(
    readonly roots: readonly string[],
    private readonly accept: (file: string) => boolean,
    private readonly budget: WatchBudget,
    private readonly now: () => number = Date.now,
  ) {}

  /** Every file known after the last look, with the stats it was last seen with. */
  all(): FoundFile[] {
    return [...this.files.values()];
  }

  get size(): number {
    return this.files.size;
  }

  async look(): Promise<TreeLook> {
    if (!this.live || this.unwatchable || this.now() - this.lastWalk >= FULL_WALK_EVERY_MS || this.missingRoots.some((r) => fs.existsSync(r))) {
      return this.walk();
    }
    await this.eventsDelivered(this.roots[0]!);
    if (this.unwatchable) return this.walk(); // a watcher failed meanwhile
    const pending = this.pending;
    this.pending = new Map();
    const look: TreeLook = { full: false, files: [], removed: [], membership: false };
    try {
      for (const [dir, names] of pending) {
        const node = this.dirs.get(dir);
        if (node === undefined) continue; // removed meanwhile with its parent
        if (!isDirectory(dir)) {
          this.goneDir(dir, look);
          continue;
        }
        if (names === null) this.relist(dir, node, look);
        else for (const name of names) this.recheck(dir, node, name, look);
      }
    } catch (err) {
      if (!(err instanceof NeedsWalk)) throw err;
      return this.walk();
    }
    return look;
  }

  /**
   * Sets a watch on every known directory, yielding between steps. After it the next look walks
   * once (what changed before a directory's watch was set is seen by that walk), then looks are
   * incremental. False when the tree cannot be watched.
   */
  async arm(pause: () => Promise<void> = () => yieldToLoop(), step = 500): Promise<boolean> {
    if (this.armed || this.unwatchable) return !this.unwatchable;
    this.armed = true;
    let n = 0;
    for (const [dir, node] of this.dirs) {
      if (this.unwatchable) break;
      if (node.watcher === null) node.watcher = this.watch(dir);
      if (++n % step === 0) await pause();
    }
    this.live = false; // the next look walks, with the watches in place
    return !this.unwatchable;
  }

  /**
   * Lets the event loop deliver every event for a write that finished before this call. The
   * kernel queues an inotify event within the write itself; a thread-pool call issued now
   * completes in a later poll phase, which also reads the inotify queue, and the check phase after
   * it (setImmediate) runs once that whole poll phase is done. Without this, a refresh asked for in
   * the same turn as an append (a test, a request handler) could miss it.
   */
  private async eventsDelivered(anyPath: string): Promise<void> {
    await fs.promises.stat(anyPath).catch(() => undefined);
    await yieldToLoop();
  }

  close(): void {
    for (const node of this.dirs.values()) this.unwatch(node);
    this.armed = false;
    this.live = false;
  }

  /** A full walk: every root again. Directories kept keep their watch; new ones are watched before they are read. */
  private async walk(): Promise<TreeLook> {
    this.pending = new Map();
    const old = this.dirs;
    const oldFiles = this.files;
    this.dirs = new Map();
    this.files = new Map();
    this.inodes = new Map();
    this.ids = new Map();
    this.missingRoots = [];
    const seenDirs = new Set<string>();
    let sinceYield = 0;
    const visit = async (dir: string, stat: fs.Stats, isRoot: boolean): Promise<void> => {
      const id = `${stat.dev}:${stat.ino}`;
      if (seenDirs.has(id)) return;
      seenDirs.add(id);
      const node: DirNode = { files: new Set(), subdirs: new Set(), watcher: old.get(dir)?.watcher ?? null };
      old.delete(dir);
      if (this.armed && node.watcher === null && !this.unwatchable) node.watcher = this.watch(dir);
      this.dirs.set(dir, node);
      const entries = listDir(dir, isRoot);
      if (entries === null) return;
      for (const entry of entries) {
        if (++sinceYield >= 500) {
          sinceYield = 0;
          await yieldToLoop();
        }
        const full = path.join(dir, entry.name);
        if (entry.isSymbolicLink()) this.giveUpWatching(); // a link's target is not watched
        if (entry.isDirectory() || entry.isSymbolicLink()) {
          const target = statOrNull(full);
          if (target?.isDirectory()) {
            node.subdirs.add(full);
            await visit(full, target, false);
          } else if (target?.isFile()) this.found(full, target, node);
        } else if (entry.isFile() && this.accept(full)) {
          const target = statOrNull(full);
          if (target) this.found(full, target, node);
        }
      }
    };
    try {
      for (const root of this.roots) {
        let stat: fs.Stats;
        try {
          stat = fs.statSync(root);
        } catch (err) {
          if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
          this.missingRoots.push(root);
          continue;
        }
        if (!stat.isDirectory()) {
          if (path.basename(root) === 'projects') throw new Error(`${root} is not a directory`);
          continue; // a stray file among instances/*
        }
        await visit(root, stat, true);
      }
    } finally {
      for (const node of old.values()) this.unwatch(node);
    }
    this.lastWalk = this.now();
    this.live = this.armed && !this.unwatchable;
    const membership = oldFiles.size !== this.files.size || [...this.files.keys()].some((f) => !oldFiles.has(f));
    return { full: true, files: this.all(), removed: [], membership };
  }

  private found(full: string, stat: fs.Stats, node: DirNode): void {
    if (!this.accept(full)) return;
    const id = `${stat.dev}:${stat.ino}`;
    if (this.inodes.has(id)) return;
    this.inodes.set(id, full);
    this.ids.set(full, id);
    node.files.add(full);
    this.files.set(full, { path: full, size: stat.size, mtimeMs: stat.mtimeMs, ino: stat.ino });
  }

  /** One name a watcher reported in `dir`: a file changed, came or went; a directory came or went. */
  private recheck(dir: string, node: DirNode, name: string, look: TreeLook): void {
    const full = path.join(dir, name);
    let stat: fs.Stats | null;
    try {
      stat = fs.lstatSync(full);
    } catch {
      stat = null;
    }
    if (stat?.isSymbolicLink()) throw new NeedsWalk();
    if (stat === null || !stat.isDirectory()) {
      if (node.subdirs.has(full)) this.dropDir(full, node, look);
    }
    if (stat === null || !stat.isFile()) {
      if (node.files.has(full)) this.dropFile(full, node, look);
    }
    if (stat?.isDirectory() && !node.subdirs.has(full)) this.addDir(full, node, look);
    else if (stat?.isFile()) {
      if (this.accept(full)) this.seen(full, stat, node, look);
      else for (const f of node.files) this.restat(f, node, look); // a sibling such as `<db>-wal` may change what a file stands for
    }
  }

  /** A watched directory that is gone: dropped, with everything below it, from its nearest parent still there. */
  private goneDir(dir: string, look: TreeLook): void {
    let child = dir;
    for (let parent = path.dirname(child); parent !== child; child = parent, parent = path.dirname(parent)) {
      const node = this.dirs.get(parent);
      if (node === undefined) break; // above the roots
      if (isDirectory(parent)) return this.recheck(parent, node, path.basename(child), look);
    }
    throw new NeedsWalk(); // a root went: a walk settles it
  }

  /** A watcher reported a change without a name: the directory is listed again. */
  private relist(dir: string, node: DirNode, look: TreeLook): void {
    let names: string[];
    try {
      names = fs.readdirSync(dir);
    } catch {
      throw new NeedsWalk(); // the directory itself went: its parent's watcher says so too, a walk is simplest
    }
    const present = new Set(names.map((n) => path.join(dir, n)));
    for (const f of [...node.files]) if (!present.has(f)) this.dropFile(f, node, look);
    for (const d of [...node.subdirs]) if (!present.has(d)) this.dropDir(d, node, look);
    for (const name of names) this.recheck(dir, node, name, look);
  }

  private restat(file: string, node: DirNode, look: TreeLook): void {
    const stat = statOrNull(file);
    if (stat?.isFile()) this.seen(file, stat, node, look);
    else this.dropFile(file, node, look);
  }

  private seen(file: string, stat: fs.Stats, node: DirNode, look: TreeLook): void {
    const found = { path: file, size: stat.size, mtimeMs: stat.mtimeMs, ino: stat.ino };
    const before = this.files.get(file);
    if (before === undefined) {
      // A second name for a file already known (a hard link) is not read twice.
      const id = `${stat.dev}:${stat.ino}`;
      const other = this.inodes.get(id);
      if (other !== undefined && this.files.has(other)) return;
      this.inodes.set(id, file);
      this.ids.set(file, id);
      look.membership = true;
      node.files.add(file);
    } else if (before.ino !== stat.ino) {
      const old = this.ids.get(file); // replaced by another file under the same name
      if (old !== undefined && this.inodes.get(old) === file) this.inodes.delete(old);
      const id = `${stat.dev}:${stat.ino}`;
      this.inodes.set(id, file);
      this.ids.set(file, id);
    }
    this.files.set(file, found);
    look.files.push(found);
  }

  private dropFile(file: string, node: DirNode, look: TreeLook): void {
    node.files.delete(file);
    if (this.files.delete(file)) {
      const id = this.ids.get(file);
      this.ids.delete(file);
      if (id !== undefined && this.inodes.get(id) === file) this.inodes.delete(id);
      look.removed.push(file);
      look.membership = true;
    }
  }

  private addDir(dir: string, parent: DirNode, look: TreeLook): void {
    const node: DirNode = { files: new Set(), subdirs: new Set(), watcher: this.watch(dir) };
    parent.subdirs.add(dir);
    this.dirs.set(dir, node);
    if (this.unwatchable) throw new NeedsWalk();
    this.relist(dir, node, look); // watched first: what is written meanwhile is an event too
  }

  private dropDir(dir: string, parent: DirNode, look: TreeLook): void {
    parent.subdirs.delete(dir);
    const node = this.dirs.get(dir);
    if (node === undefined) return;
    this.dirs.delete(dir);
    this.unwatch(node);
    for (const f of [...node.files]) this.dropFile(f, node, look);
    for (const d of [...node.subdirs]) this.dropDir(d, node, look);
  }

  private watch(dir: string): fs.FSWatcher | null {
    if (this.budget.left <= 0) {
      this.giveUpWatching();
      return null;
    }
    try {
      const watcher = fs.watch(dir, { persistent: false }, (_event, name) => this.changed(dir, name));
      watcher.on('error', () => this.giveUpWatching());
      this.budget.left--;
      return watcher;
    } catch {
      this.giveUpWatching(); // out of inotify watches, or the directory just went
      return null;
    }
  }

  private changed(dir: string, name: string | Buffer | null): void {
    const names = this.pending.get(dir);
    if (name === null || name === undefined) this.pending.set(dir, null);
    else if (names !== null) {
      if (names === undefined) this.pending.set(dir, new Set([String(name)]));
      else names.add(String(name));
    }
  }

  private unwatch(node: DirNode): void {
    if (node.watcher === null) return;
    node.watcher.close();
    node.watcher = null;
    this.budget.left++;
  }

  private giveUpWatching(): void {
    if (this.unwatchable) return;
    this.unwatchable = true;
    this.live = false;
    for (const node of this.dirs.values()) this.unwatch(node);
  }
}

class NeedsWalk extends Error {}

function isDirectory(dir: string): boolean {
  return statOrNull(dir)?.isDirectory() ?? false;
}
