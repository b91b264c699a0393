import fs from 'node:fs/promises';
import path from 'node:path';
import { isWithin } from '../../infra/safe-path.js';
import { describeMarkdown, NO_DESCRIPTION } from './description.js';
import { byCodeUnits, ITEM_TYPE, type SharedItem, type SharedType } from './types.js';
import { openRegularFile } from '../../infra/foreign-file.js';

/** Directory levels below the type root that commands are searched in (decisions §3). */
export const MAX_COMMAND_DEPTH = 5;
/** Descriptions live at the top of a file; a huge file is not read whole just to list it. */
const DESCRIPTION_READ_BYTES = 64 * 1024;
const READ_CONCURRENCY = 16;

interface Found {
  /** Relative path with `/` separators, as clients see it. */
  rel: string;
  /** Real path of the file, proven inside the type root. */
  real: string;
}

/**
 * Finds the items of one type under `root` (a link into the agent data dir, usually).
 * Entries resolving outside the root, dangling links, loops, special files and dot-entries are
 * skipped: discovery never fails because of one bad entry.
 */
export async function discover(root: string, type: SharedType): Promise<Found[]> {
  const realRoot = await realpathOrNull(root);
  if (realRoot === null) return [];
  const found: Found[] = [];
  if (type === 'skills') await findSkills(root, realRoot, found);
  else await walkMarkdown(root, '', 0, type === 'commands' ? MAX_COMMAND_DEPTH : 0, realRoot, new Set([realRoot]), found);
  return found;
}

/** Items of one type with their descriptions, sorted by name in code-unit order. */
export async function listItems(root: string, type: SharedType): Promise<SharedItem[]> {
  const found = await discover(root, type);
  const items = await mapLimited(found, READ_CONCURRENCY, async ({ rel, real }) => ({
    name: itemName(type, rel),
    description: await describeFile(real),
    path: rel,
    type: ITEM_TYPE[type],
  }));
  return items.sort((a, b) => byCodeUnits(a.name, b.name) || byCodeUnits(a.path, b.path));
}

export function itemName(type: SharedType, rel: string): string {
  if (type === 'skills') return rel.slice(0, rel.indexOf('/'));
  return rel.slice(0, -'.md'.length);
}

async function walkMarkdown(
  dir: string,
  rel: string,
  depth: number,
  maxDepth: number,
  realRoot: string,
  visited: Set<string>,
  out: Found[],
): Promise<void> {
  for (const name of await readdirOrEmpty(dir)) {
    if (name.startsWith('.')) continue;
    const childRel = rel ? `${rel}/${name}` : name;
    const entry = await inspect(path.join(dir, name), realRoot);
    if (entry?.kind === 'file' && name.endsWith('.md')) out.push({ rel: childRel, real: entry.real });
    // A directory reached twice (a link loop or two links to one place) is walked once.
    if (entry?.kind === 'dir' && depth < maxDepth && !visited.has(entry.real)) {
      visited.add(entry.real);
      await walkMarkdown(path.join(dir, name), childRel, depth + 1, maxDepth, realRoot, visited, out);
    }
  }
}

async function findSkills(root: string, realRoot: string, out: Found[]): Promise<void> {
  for (const name of await readdirOrEmpty(root)) {
    if (name.startsWith('.')) continue;
    const dir = await inspect(path.join(root, name), realRoot);
    if (dir?.kind !== 'dir') continue;
    const skill = await inspect(path.join(root, name, 'SKILL.md'), realRoot);
    if (skill?.kind === 'file') out.push({ rel: `${name}/SKILL.md`, real: skill.real });
  }
}

async function inspect(full: string, realRoot: string): Promise<{ kind: 'file' | 'dir'; real: string } | null> {
  try {
    const real = await fs.realpath(full);
    if (!isWithin(realRoot, real)) return null;
    const stat = await fs.stat(real);
    if (stat.isFile()) return { kind: 'file', real };
    if (stat.isDirectory()) return { kind: 'dir', real };
    return null; // FIFOs, sockets, devices: reading them could block or never end
  } catch {
    return null; // dangling link, loop (ELOOP), permission denied
  }
}

async function describeFile(file: string): Promise<string> {
  try {
    const handle = await openRegularFile(file); // non-blocking: a FIFO swapped in after the stat must not hang a thread
    try {
      const buffer = Buffer.alloc(DESCRIPTION_READ_BYTES);
      const { bytesRead } = await handle.read(buffer, 0, buffer.length, 0);
      return describeMarkdown(buffer.subarray(0, bytesRead).toString('utf8'));
    } finally {
      await handle.close();
    }
  } catch {
    return NO_DESCRIPTION;
  }
}

async function readdirOrEmpty(dir: string): Promise<string[]> {
  try {
    return await fs.readdir(dir);
  } catch {
    return [];
  }
}

export async function realpathOrNull(target: string): Promise<string | null> {
  try {
    return await fs.realpath(target);
  } catch {
    return null;
  }
}

async function mapLimited<T, R>(items: T[], limit: number, fn: (item: T) => Promise<R>): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      results[i] = await fn(items[i]!);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}
