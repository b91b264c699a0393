import { randomBytes } from 'node:crypto';
import fsSync from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import { writeFileAtomic } from './atomic-write.js';
import { isProcessAlive, processArgv } from './process-alive.js';
import { sleep } from './process-wait.js';

/** What `{config_dir}/switchboard.lock` holds: who owns the home, and where it answers. */
export interface HomeLockRecord {
  pid: number;
  /** `null` while the owner is still starting (its port is not bound yet). */
  url: string | null;
  startedAt: number;
  /** The owner's argv after the executable, to tell a reused pid from the owner (pids get reused). */
  argv: string[];
}

/** Another live Switchboard owns this `{config_dir}`. */
export class HomeLockedError extends Error {
  constructor(
    readonly configDir: string,
    readonly owner: HomeLockRecord,
  ) {
    super(
      owner.url
        ? `${configDir} is in use by another Switchboard (pid ${owner.pid}) at ${owner.url}/`
        : `${configDir} is in use by another Switchboard (pid ${owner.pid}), still starting`,
    );
    this.name = 'HomeLockedError';
  }
}

export interface HomeLock {
  readonly file: string;
  /** Records the URL once the port is bound, so a second launch can name it. */
  setUrl(url: string): Promise<void>;
  /** Removes the lock if it is still ours. Safe to call twice. */
  release(): Promise<void>;
}

const LOCK_NAME = 'switchboard.lock';
/** A takeover marker older than this belongs to a launch that died mid-takeover. */
const TAKEOVER_STALE_MS = 10_000;

/**
 * Makes this process the one owner of `configDir` (issue 17: two servers on one home lost
 * updates and stopped each other's proxy). The lock is created whole and exclusively (a
 * temp file hard-linked into place: `link` fails when the name exists, even as a symlink); a
 * lock whose pid is gone, or runs another program now, is stale and taken over.
 */
export async function acquireHomeLock(configDir: string): Promise<HomeLock> {
  const file = path.join(configDir, LOCK_NAME);
  const mine: HomeLockRecord = { pid: process.pid, url: null, startedAt: Date.now(), argv: process.argv.slice(1) };
  for (let attempt = 0; ; attempt++) {
    if (await createExclusive(file, mine)) break;
    const owner = await readHomeLock(file);
    if (owner && (await isLiveOwner(owner))) throw new HomeLockedError(configDir, owner);
    const tookOver = await withTakeover(file, async () => {
      const again = await readHomeLock(file);
      if (again && (await isLiveOwner(again))) throw new HomeLockedError(configDir, again);
      await fs.rm(file, { force: true });
      return createExclusive(file, mine);
    });
    if (tookOver) break;
    if (attempt >= 50) throw new Error(`could not take ${file}: another launch keeps taking it over`);
    await sleep(20);
  }
  const onExit = () => releaseSync(file, mine);
  process.once('exit', onExit);
  let released = false;
  return {
    file,
    async setUrl(url) {
      if (released) return;
      mine.url = url;
      if (isSameOwner(await readHomeLock(file), mine)) await writeFileAtomic(file, serialize(mine), { mode: 0o600 });
    },
    async release() {
      if (released) return;
      released = true;
      process.off('exit', onExit);
      if (isSameOwner(await readHomeLock(file), mine)) await fs.rm(file, { force: true });
    },
  };
}

/** The lock's record, or null when there is none or it is unreadable (a symlink is never followed). */
export async function readHomeLock(file: string): Promise<HomeLockRecord | null> {
  let text: string;
  try {
    const handle = await fs.open(file, fsSync.constants.O_RDONLY | (fsSync.constants.O_NOFOLLOW ?? 0));
    try {
      text = await handle.readFile({ encoding: 'utf8' });
    } finally {
      await handle.close();
    }
  } catch {
    return null;
  }
  try {
    const data = JSON.parse(text.slice(0, 64 * 1024)) as Partial<HomeLockRecord>;
    if (!Number.isInteger(data.pid) || typeof data.startedAt !== 'number') return null;
    return {
      pid: data.pid!,
      url: typeof data.url === 'string' ? data.url : null,
      startedAt: data.startedAt,
      argv: Array.isArray(data.argv) ? data.argv.filter((a): a is string => typeof a === 'string') : [],
    };
  } catch {
    return null;
  }
}

/** Live while its pid runs and, where argv can be read, still runs what wrote the lock. */
async function isLiveOwner(owner: HomeLockRecord): Promise<boolean> {
  if (!isProcessAlive(owner.pid)) return false;
  if (owner.pid === process.pid) return true;
  const argv = await processArgv(owner.pid);
  if (!argv) return true; // cannot tell (Windows, no /proc access): a live pid keeps its lock
  const joined = argv.join(' ');
  return owner.argv.every((part) => argv.includes(part) || (argv.length === 1 && joined.includes(part)));
}

async function createExclusive(file: string, record: HomeLockRecord): Promise<boolean> {
  const temp = path.join(path.dirname(file), `.${LOCK_NAME}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`);
  await fs.writeFile(temp, serialize(record), { mode: 0o600, flag: 'wx' });
  try {
    await fs.link(temp, file);
    return true;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw err;
  } finally {
    await fs.rm(temp, { force: true });
  }
}

/** Runs `task` while holding `<lock>.takeover`, so two launches never both remove a stale lock. */
async function withTakeover(file: string, task: () => Promise<boolean>): Promise<boolean> {
  const marker = `${file}.takeover`;
  try {
    await fs.writeFile(marker, String(process.pid), { flag: 'wx', mode: 0o600 });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    const st = await fs.lstat(marker).catch(() => null);
    if (st && Date.now() - st.mtimeMs > TAKEOVER_STALE_MS) await fs.rm(marker, { force: true });
    return false;
  }
  try {
    return await task();
  } finally {
    await fs.rm(marker, { force: true });
  }
}

function isSameOwner(record: HomeLockRecord | null, mine: HomeLockRecord): boolean {
  return record !== null && record.pid === mine.pid && record.startedAt === mine.startedAt;
}

function releaseSync(file: string, mine: HomeLockRecord): void {
  try {
    const record = JSON.parse(fsSync.readFileSync(file, 'utf8')) as Partial<HomeLockRecord>;
    if (record.pid === mine.pid && record.startedAt === mine.startedAt) fsSync.rmSync(file, { force: true });
  } catch {
    // gone already, or not ours to remove
  }
}

function serialize(record: HomeLockRecord): string {
  return `${JSON.stringify(record, null, 2)}\n`;
}
