import fs from 'node:fs/promises';
import path from 'node:path';
import { realpathOrNull } from './discovery.js';
import { SHARED_TYPES, type SharedType, type SymlinkStatus } from './types.js';

export interface SharedLocations {
  /** `{config_dir}/shared` */
  sharedDir: string;
  /** The agent data dir the links point into. */
  agentDir: string;
}

/** What one `{config_dir}/shared/<type>` entry is right now. */
export type LinkState = 'linked' | 'broken' | 'absent' | 'other';

export function linkPath(where: SharedLocations, type: SharedType): string {
  return path.join(where.sharedDir, type);
}

export function linkTarget(where: SharedLocations, type: SharedType): string {
  return path.join(where.agentDir, type);
}

/**
 * `linked`: a link (junction on Windows) that resolves to `<agentDir>/<type>`; `broken`: a link
 * whose target is gone; `absent`: nothing there; `other`: a real directory, a file, or a link
 * to somewhere else.
 */
export async function linkState(where: SharedLocations, type: SharedType): Promise<LinkState> {
  const link = linkPath(where, type);
  let stat;
  try {
    stat = await fs.lstat(link);
  } catch {
    return 'absent';
  }
  if (!stat.isSymbolicLink()) return 'other';
  const real = await realpathOrNull(link);
  if (real === null) return 'broken';
  return real === (await realpathOrNull(linkTarget(where, type))) ? 'linked' : 'other';
}

/**
 * decisions §3: `broken` when any link dangles (it needs fixing first), `ok` when all three
 * link into the agent data dir, `partial` when some do, `missing` when none do (no shared dir,
 * or nothing in it linked).
 */
export async function symlinkStatus(where: SharedLocations): Promise<SymlinkStatus> {
  if ((await realpathOrNull(where.sharedDir)) === null) return 'missing';
  const states = await Promise.all(SHARED_TYPES.map((type) => linkState(where, type)));
  if (states.includes('broken')) return 'broken';
  const linked = states.filter((s) => s === 'linked').length;
  if (linked === SHARED_TYPES.length) return 'ok';
  return linked > 0 ? 'partial' : 'missing';
}
