import fs from 'node:fs';
import path from 'node:path';
import { setImmediate as yieldToLoop } from 'node:timers/promises';
import { isNotFound } from '../../infra/file-stat.js';

export interface FoundFile {
  path: string;
  size: number;
  mtimeMs: number;
  ino: number;
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
 */
export async function findTranscripts(
  roots: readonly string[],
  onFound?: (file: FoundFile) => void,
  accept: (file: string) => boolean = (file) => file.endsWith('.jsonl'),
  fileRoots = false,
): Promise<FoundFile[]> {
  const walk = new Walk(onFound, accept, fileRoots);
  for (const root of roots) await walk.root(root);
  return walk.found.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
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

class Walk {
  readonly found: FoundFile[] = [];
  private readonly seenDirs = new Set<string>();
  private readonly seenFiles = new Set<string>();
  private sinceYield = 0;

  /** `onFound` sees each file as it is found (in walk order), before the sorted list is ready. */
  constructor(
    private readonly onFound: ((file: FoundFile) => void) | undefined,
    private readonly accept: (file: string) => boolean,
    /** A root that is a file is read as it is (a file an agent's variable names), whatever its name. */
    private readonly fileRoots = false,
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
    let entries: fs.Dirent[];
    try {
      entries = fs.readdirSync(dir, { withFileTypes: true });
    } catch (err) {
      if (isRoot) throw err;
      return; // vanished or unreadable below a root: skip that branch, keep the rest
    }
    for (const entry of entries) {
      if (++this.sinceYield >= 500) {
        this.sinceYield = 0;
        await yieldToLoop();
      }
      const full = path.join(dir, entry.name);
      if (entry.isDirectory() || entry.isSymbolicLink()) {
        const target = statOrNull(full);
        if (target?.isDirectory()) await this.dir(full, target, false);
        else if (target?.isFile()) this.file(full, target);
      } else if (entry.isFile() && this.accept(full)) {
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
    const found = { path: full, size: stat.size, mtimeMs: stat.mtimeMs, ino: stat.ino };
    this.found.push(found);
    this.onFound?.(found);
  }
}

function statOrNull(file: string): fs.Stats | null {
  try {
    return fs.statSync(file);
  } catch {
    return null; // broken link or a race with the agent deleting the file
  }
}
