import fs from 'node:fs';
import path from 'node:path';
import { setImmediate as yieldToLoop } from 'node:timers/promises';
import { isNotFound } from '../../infra/file-stat.js';
import { joinInPathOrder } from './path-order.js';

export interface FoundFile {
  path: string;
  /** UNSIZED when the walk did not stat the file (a cold scan): its read tells size, mtime and inode. */
  size: number;
  mtimeMs: number;
  ino: number;
}

/** The size, mtime and inode of a file found without a stat. */
export const UNSIZED = -1;

/** A file the walk did not stat: nothing known but its path. */
export function unsized(file: string): FoundFile {
  return { path: file, size: UNSIZED, mtimeMs: UNSIZED, ino: UNSIZED };
}

/** The agent's own transcript folder (Claude Code writes `{agentDir}/projects/<project>/<session>.jsonl`). */
export function transcriptsDir(agentDir: string): string {
  return path.join(agentDir, 'projects');
}

/** The directories a scan reads (decisions §5): `<agent dir>/projects` and each `{config_dir}/instances/*`. */
export function usageRoots(agentDir: string, instancesDir: string): string[] {
  const roots = [transcriptsDir(agentDir)];
  let names: string[] = [];
  try {
    names = fs.readdirSync(instancesDir).sort();
  } catch (err) {
    if (!isNotFound(err)) throw err;
  }
  for (const name of names) roots.push(path.join(instancesDir, name));
  return roots;
}

/**
 * Every `*.jsonl` below the roots at any depth, symlinks followed, loops and second paths to the
 * same file ignored, in path order. A missing root is empty data; a root that cannot be listed is
 * a failed scan. Sync calls in small batches: a stat costs microseconds, a promise round trip more.
 *
 * `sized` is asked before each regular file the listing shows: false leaves it UNSIZED, without a
 * stat (a cold scan reads every file anyway and its read's fstat tells the rest; 140 000 stats were
 * two thirds of a second of the main thread). Second paths to such a file are then only seen after
 * the read (usage-loader.ts). Links, folders and roots are always stat'ed: loops and link targets.
 */
export async function findTranscripts(
  roots: readonly string[],
  onFound?: (file: FoundFile) => void,
  accept: (file: string) => boolean = (file) => file.endsWith('.jsonl'),
  fileRoots = false,
  sized: () => boolean = () => true,
): Promise<FoundFile[]> {
  const walk = new Walk(onFound, accept, fileRoots, sized);
  for (const root of roots) {
    walk.found.push([]);
    await walk.root(root);
  }
  return joinInPathOrder(walk.found);
}

/**
 * The given store files that exist (an agent's SQLite database at a fixed place): one stat each,
 * no walk. A missing one is no data; the same file named twice (or by two links) counts once.
 */
export function findStores(paths: readonly string[], onFound?: (file: FoundFile) => void): FoundFile[] {
  const found: FoundFile[] = [];
  const seen = new Set<string>();
  for (const p of paths) {
    const stat = statOrNull(p);
    if (stat === null || !stat.isFile() || seen.has(`${stat.dev}:${stat.ino}`)) continue;
    seen.add(`${stat.dev}:${stat.ino}`);
    const file = { path: p, size: stat.size, mtimeMs: stat.mtimeMs, ino: stat.ino };
    found.push(file);
    onFound?.(file);
  }
  return found;
}

/**
 * Depth first, each folder's entries in name order with a folder's name taken as `name/`: the files
 * come out in path order (`a-b` < `a/x` < `a.c`... as whole paths compare), with no sort of the list.
 */
class Walk {
  /** One run per root, each in path order. */
  readonly found: FoundFile[][] = [];
  private readonly seenDirs = new Set<string>();
  private readonly seenFiles = new Set<string>();
  private sinceYield = 0;

  /** `onFound` sees each file as it is found (in walk order), before the sorted list is ready. */
  constructor(
    private readonly onFound: ((file: FoundFile) => void) | undefined,
    private readonly accept: (file: string) => boolean,
    /** A root that is a file is read as it is (a file an agent's variable names), whatever its name. */
    private readonly fileRoots: boolean,
    private readonly sized: () => boolean,
  ) {}

  async root(root: string): Promise<void> {
    let stat: fs.Stats;
    try {
      stat = fs.statSync(root);
    } catch (err) {
      if (isNotFound(err)) return;
      throw err;
    }
    if (this.fileRoots && stat.isFile()) {
      this.file(root, stat, true);
      return;
    }
    if (!stat.isDirectory()) {
      if (path.basename(root) === 'projects') throw new Error(`${root} is not a directory`);
      return; // a stray file among instances/*
    }
    await this.dir(root, stat, true);
  }

  private async dir(dir: string, stat: fs.Stats, isRoot: boolean): Promise<void> {
    const id = `${stat.dev}:${stat.ino}`;
    if (this.seenDirs.has(id)) return;
    this.seenDirs.add(id);
    const entries = listDir(dir, isRoot);
    if (entries === null) return;
    const prefix = dir.endsWith(path.sep) ? dir : dir + path.sep;
    // Links are stat'ed first: where one sorts depends on whether it leads to a folder.
    const targets = new Map<fs.Dirent, fs.Stats | null>();
    for (const entry of entries) if (entry.isSymbolicLink()) targets.set(entry, statOrNull(prefix + entry.name));
    const isDir = (e: fs.Dirent) => e.isDirectory() || (e.isSymbolicLink() && targets.get(e)?.isDirectory() === true);
    entries.sort((a, b) => compareNames(a, b, isDir));
    for (const entry of entries) {
      if (++this.sinceYield >= 500) {
        this.sinceYield = 0;
        await yieldToLoop();
      }
      const full = prefix + entry.name;
      if (entry.isDirectory() || entry.isSymbolicLink()) {
        const target = entry.isDirectory() ? statOrNull(full) : targets.get(entry);
        if (target?.isDirectory()) await this.dir(full, target, false);
        else if (target?.isFile()) this.file(full, target);
      } else if (entry.isFile() && this.accept(full)) {
        if (!this.sized()) {
          this.add(unsized(full));
          continue;
        }
        // Only files the agent reads are stat'ed (opencode's storage holds many it does not).
        const target = statOrNull(full);
        if (target) this.file(full, target);
      }
    }
  }

  private file(full: string, stat: fs.Stats, named = false): void {
    if (!named && !this.accept(full)) return;
    const id = `${stat.dev}:${stat.ino}`;
    if (this.seenFiles.has(id)) return;
    this.seenFiles.add(id);
    this.add({ path: full, size: stat.size, mtimeMs: stat.mtimeMs, ino: stat.ino });
  }

  private add(found: FoundFile): void {
    this.found.at(-1)!.push(found);
    this.onFound?.(found);
  }
}

/**
 * Sibling entries in the order of the paths below them: a folder `a` sorts as `a/`, so the file
 * `a.c` (`.` < `/`) comes before everything in `a`, and `a0` after. Only when one name starts the
 * other does that differ from comparing the names (and is it asked whether one is a folder).
 */
function compareNames(a: fs.Dirent, b: fs.Dirent, isDir: (e: fs.Dirent) => boolean): number {
  const x = a.name;
  const y = b.name;
  if (y.startsWith(x)) return x === y ? 0 : (isDir(a) ? SEP : -1) - y.charCodeAt(x.length);
  if (x.startsWith(y)) return x.charCodeAt(y.length) - (isDir(b) ? SEP : -1);
  return x < y ? -1 : 1;
}

const SEP = path.sep.charCodeAt(0);

/**
 * A folder's entries; null when one below a root vanished or cannot be read (that branch is
 * skipped, the rest kept). A root that cannot be listed throws: the scan fails.
 */
export function listDir(dir: string, isRoot: boolean): fs.Dirent[] | null {
  try {
    return fs.readdirSync(dir, { withFileTypes: true });
  } catch (err) {
    if (isRoot) throw err;
    return null;
  }
}

/** The file's stat, or null: a broken link, or a race with the agent deleting the file. */
export function statOrNull(file: string): fs.Stats | null {
  try {
    return fs.statSync(file);
  } catch {
    return null;
  }
}
