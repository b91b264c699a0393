import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { writeFileAtomic } from '../infra/atomic-write.js';
import { isProcessAlive } from '../infra/process-alive.js';

const PREFIX = 'switchboard-run-';

export interface LaunchSettingsFile {
  file: string;
  /** Removes the file and its folder; safe to call twice. */
  remove(): Promise<void>;
}

/**
 * The profile's `--settings` for Claude Code as a file only its owner can read (0600 in a 0700
 * folder), not as a JSON argument: a command line is readable by every local user (`ps`), and the
 * env holds the profile's token. The folder is named after our pid, so a run that was killed
 * before it could clean up is swept by the next one.
 */
export async function writeLaunchSettings(text: string, tmpDir: string = os.tmpdir()): Promise<LaunchSettingsFile> {
  await sweepStale(tmpDir);
  const dir = await fs.mkdtemp(path.join(tmpDir, `${PREFIX}${process.pid}-`));
  await fs.chmod(dir, 0o700);
  const file = path.join(dir, 'settings.json');
  let removed = false;
  const remove = async () => {
    if (removed) return;
    removed = true;
    await fs.rm(dir, { recursive: true, force: true });
  };
  try {
    await writeFileAtomic(file, text, { mode: 0o600, dirMode: 0o700 });
  } catch (err) {
    await remove();
    throw err;
  }
  return { file, remove };
}

/** Folders of earlier runs whose process is gone (killed with SIGKILL, a crash). */
async function sweepStale(tmpDir: string): Promise<void> {
  const names = await fs.readdir(tmpDir).catch(() => [] as string[]);
  for (const name of names) {
    const pid = Number(/^switchboard-run-(\d+)-/.exec(name)?.[1] ?? NaN);
    if (!Number.isInteger(pid) || pid === process.pid || isProcessAlive(pid)) continue;
    const full = path.join(tmpDir, name);
    const st = await fs.lstat(full).catch(() => null);
    // Only our own folders: a directory (never a link) owned by this user.
    if (st?.isDirectory() && (typeof process.getuid !== 'function' || st.uid === process.getuid())) {
      await fs.rm(full, { recursive: true, force: true }).catch(() => undefined);
    }
  }
}
