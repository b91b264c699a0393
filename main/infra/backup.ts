import fs from 'node:fs/promises';
import path from 'node:path';
import { writeFileAtomic } from './atomic-write.js';

export interface BackupOptions {
  backupsDir: string;
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
 * only the newest `keep` backups of the same base. Returns the backup's path.
 */
export async function writeBackup(content: string, options: BackupOptions): Promise<string> {
  const stamp = backupStamp(options.now ?? new Date());
  let target = path.join(options.backupsDir, `${options.base}.${stamp}${options.suffix}`);
  for (let n = 1; await exists(target); n++) {
    target = path.join(options.backupsDir, `${options.base}.${stamp}-${n}${options.suffix}`);
  }
  await writeFileAtomic(target, content, { mode: 0o600 });
  await pruneBackups(options);
  return target;
}

async function pruneBackups({ backupsDir, base, suffix, keep }: BackupOptions): Promise<void> {
  const prefix = `${base}.`;
  const names = (await fs.readdir(backupsDir))
    .filter((n) => n.startsWith(prefix) && n.endsWith(suffix) && /^\d{8}T\d{9}Z/.test(n.slice(prefix.length)))
    .sort();
  for (const name of names.slice(0, Math.max(0, names.length - keep))) {
    await fs.rm(path.join(backupsDir, name), { force: true });
  }
}

async function exists(file: string): Promise<boolean> {
  try {
    await fs.access(file);
    return true;
  } catch {
    return false;
  }
}
