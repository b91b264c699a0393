import fs from 'node:fs/promises';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { errorMessage } from '../../infra/file-stat.js';
import { linkPath, linkState, linkTarget, type SharedLocations } from './link-status.js';
import { SHARED_TYPES, type SharedType } from './types.js';

export type LinkAction = 'created' | 'kept' | 'replaced' | 'refused';

export interface LinkOutcome {
  type: SharedType;
  link: string;
  target: string;
  action: LinkAction;
  /** Why a link was refused, in words a user can act on. */
  reason?: string;
}

/**
 * Makes `{config_dir}/shared/<type>` a link to `<agentDir>/<type>` for the three types,
 * creating the targets when missing. Only links and empty directories are ever replaced: a
 * real directory with files in it, or a file, is user data and is left alone with a reason.
 */
export async function linkSharedDirs(where: SharedLocations, platform: NodeJS.Platform = process.platform): Promise<LinkOutcome[]> {
  try {
    await fs.mkdir(where.sharedDir, { recursive: true, mode: 0o700 });
  } catch (err) {
    const reason = `cannot create ${where.sharedDir}: ${errorMessage(err)}`;
    return SHARED_TYPES.map((type) => refused(where, type, reason));
  }
  const outcomes: LinkOutcome[] = [];
  for (const type of SHARED_TYPES) outcomes.push(await linkOne(where, type, platform));
  return outcomes;
}

async function linkOne(where: SharedLocations, type: SharedType, platform: NodeJS.Platform): Promise<LinkOutcome> {
  const link = linkPath(where, type);
  const target = linkTarget(where, type);
  const targetProblem = await ensureTargetDir(target);
  if (targetProblem) return refused(where, type, targetProblem);
  const state = await linkState(where, type);
  try {
    if (state === 'linked') return outcome(where, type, 'kept');
    if (state === 'absent') {
      await createLink(target, link, platform);
      return outcome(where, type, 'created');
    }
    const stat = await fs.lstat(link);
    if (stat.isSymbolicLink()) {
      // A dangling link or one pointing elsewhere holds no data of its own: swap it.
      await replaceLink(target, link, platform);
      return outcome(where, type, 'replaced');
    }
    if (stat.isDirectory()) {
      const entries = await fs.readdir(link);
      if (entries.length > 0) {
        return refused(
          where,
          type,
          `${link} is a real directory with ${entries.length} ${entries.length === 1 ? 'entry' : 'entries'}; ` +
            `move its contents into ${target} (or elsewhere) and run again. Nothing was deleted.`,
        );
      }
      await fs.rmdir(link);
      await createLink(target, link, platform);
      return outcome(where, type, 'replaced');
    }
    return refused(where, type, `${link} is a file, not a directory; move it away and run again. Nothing was deleted.`);
  } catch (err) {
    return refused(where, type, `cannot link ${link} to ${target}: ${errorMessage(err)}`);
  }
}

async function ensureTargetDir(target: string): Promise<string | undefined> {
  try {
    await fs.mkdir(target, { recursive: true });
    if (!(await fs.stat(target)).isDirectory()) return `${target} exists but is not a directory`;
    return undefined;
  } catch (err) {
    return `cannot create ${target}: ${errorMessage(err)}`;
  }
}

/** Junctions on Windows need no developer mode or admin rights, unlike directory symlinks. */
function createLink(target: string, link: string, platform: NodeJS.Platform): Promise<void> {
  return fs.symlink(target, link, platform === 'win32' ? 'junction' : 'dir');
}

/** POSIX: new link beside the old one, then rename over it, so the path is never missing. */
async function replaceLink(target: string, link: string, platform: NodeJS.Platform): Promise<void> {
  if (platform === 'win32') {
    await fs.unlink(link);
    await createLink(target, link, platform);
    return;
  }
  const temp = path.join(path.dirname(link), `.${path.basename(link)}.${randomBytes(6).toString('hex')}.tmp`);
  await createLink(target, temp, platform);
  try {
    await fs.rename(temp, link);
  } catch (err) {
    await fs.rm(temp, { force: true });
    throw err;
  }
}

function outcome(where: SharedLocations, type: SharedType, action: LinkAction): LinkOutcome {
  return { type, link: linkPath(where, type), target: linkTarget(where, type), action };
}

function refused(where: SharedLocations, type: SharedType, reason: string): LinkOutcome {
  return { ...outcome(where, type, 'refused'), reason };
}
