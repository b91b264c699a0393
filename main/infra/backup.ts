import fs from 'node:fs/promises';
import path from 'node:path';
import { writeFileAtomic } from './atomic-write.js';
import { ensureOwnDir } from './no-follow.js';
import { pathExists } from './file-stat.js';

export interface BackupOptions {
  backupsDir: string;
  /** {config_dir}: every directory from it down to `backupsDir` must be a real one (links are replaced). */
  home: string;
  /** Name the backups share, e.g. the profile name; files are `<base>.<stamp><suffix>`. */
  base: string;
  suffix: string;
  keep: number;
  now?: Date;
}

/** UTC stamp YYYYMMDDTHHMMSSmmmZ: sorts in time order as plain text. */
export function backupStamp(date: Date): string {
  return date.toISOString().replace(/[-:]/g, '').replace('.', '');
}

/**
 * Copies `content` (the file as it is before a write) into the backups directory and keeps
 * only the newest `keep` backups of the same base. Returns the backup's path. Pass the bytes
 * as read when the file may not be valid UTF-8 (a damaged file), so the backup is exact.
 */
export async function writeBackup(content: string | Uint8Array, options: BackupOptions): Promise<string> {
  // Two backups in the same millisecond take the next free millisecond instead of a suffix, so
  // every name keeps the documented pattern and name order stays time order for pruning.
  await ensureOwnDir(options.backupsDir, options.home);
  let time = (options.now ?? new Date()).getTime();
  let target = backupPath(options, time);
  while (await pathExists(target)) target = backupPath(options, ++time);
  await writeFileAtomic(target, content, { mode: 0o600 });
  await pruneBackups(options);
  return target;
}

function backupPath({ backupsDir, base, suffix }: BackupOptions, time: number): string {
  return path.join(backupsDir, `${base}.${backupStamp(new Date(time))}${suffix}`);
}

async function pruneBackups({ backupsDir, base, suffix, keep }: BackupOptions): Promise<void> {
  const prefix = `${base}.`;
  // Exactly `<base>.<stamp><suffix>`: profile `a` must not prune the backups of profile `a.b`.
  const names = (await fs.readdir(backupsDir))
    .filter((n) => n.startsWith(prefix) && n.endsWith(suffix))
    .filter((n) => /^\d{8}T\d{9}Z$/.test(n.slice(prefix.length, n.length - suffix.length)))
    .sort();
  for (const name of names.slice(0, Math.max(0, names.length - keep))) {
    await fs.rm(path.join(backupsDir, name), { force: true });
  }
}
