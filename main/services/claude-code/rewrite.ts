import { writeBackup, type BackupOptions } from '../../infra/backup.js';
import { errorMessage } from '../../infra/file-stat.js';
import { readAgentFile, replaceIfUnchanged, type AgentFile } from './agent-file.js';
import { ClaudeCodeError } from './errors.js';
import { sha256 } from './record.js';

/** What to put in place of the file as read: its content (null removes it) and mode. */
export interface Replacement<T> {
  content: string | Buffer | null;
  mode: number;
  data: T;
}

export interface Rewritten<T> {
  /** The version of the file that was replaced (null: there was none). */
  replaced: AgentFile | null;
  written: string | Buffer | null;
  mode: number;
  data: T;
  /** Backup of the replaced version; null when there was no file. */
  backupPath: string | null;
}

/** A save landing between each read and rename this many times running is an agent in a loop: give up, lose nothing. */
const MAX_ATTEMPTS = 100;

/**
 * Reads the agent's settings file, plans its replacement from what was read, and replaces it
 * only if it is still that version just before the rename; otherwise reads the new version and
 * plans again (issue 27 point 2: Claude Code, editors and the user save this file too, and a save
 * landing inside an apply must not be overwritten). Every version replaced is backed up first.
 */
export async function rewriteAgentFile<T>(file: string, backups: Omit<BackupOptions, 'now'> & { now: () => Date }, plan: (current: AgentFile | null) => Replacement<T>): Promise<Rewritten<T>> {
  let backedUp: { sha: string; path: string } | null = null;
  for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
    const current = await readAgentFile(file);
    const next = plan(current);
    const backUp = async () => {
      if (current && backedUp?.sha !== sha256(current.bytes)) {
        backedUp = { sha: sha256(current.bytes), path: await writeBackup(current.bytes, { ...backups, now: backups.now() }) };
      }
    };
    try {
      if (await replaceIfUnchanged(file, current, next.content, next.mode, backUp)) {
        return { replaced: current, written: next.content, mode: next.mode, data: next.data, backupPath: current ? backedUp!.path : null };
      }
    } catch (err) {
      throw new ClaudeCodeError('write-failed', errorMessage(err));
    }
  }
  throw new ClaudeCodeError('busy', `${file} was saved by another program during each of ${MAX_ATTEMPTS} attempts; it was left as that program saved it`);
}
