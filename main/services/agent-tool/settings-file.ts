import fs from 'node:fs/promises';
import path from 'node:path';
import { writeFileAtomic } from '../../infra/atomic-write.js';
import { writeBackup } from '../../infra/backup.js';
import { serializeFile } from '../../infra/file-lock.js';
import { errorMessage, isNotFound, statMtime, toMtime } from '../../infra/file-stat.js';
import { JSON_TOO_DEEP, jsonTooDeep } from '../../infra/json-depth.js';
import { READ_LIMITS, readTextBounded } from '../../infra/bounded-read.js';
import { NotRegularFileError, openRegularFile } from '../../infra/foreign-file.js';
import { advanceMtime } from '../../infra/mtime-advance.js';
import { readFileSettled, readFileTimed, type SettleOptions, type TimedRead } from '../../infra/settled-read.js';
import { checkMtime } from '../mtime-conflict.js';

export interface SettingsFileState {
  path: string;
  exists: boolean;
  mtime: number | null;
  sizeBytes: number | null;
  /** Raw text; `"{}"` when the file does not exist. */
  content: string;
  /** The parsed object; `{}` when missing, null when the text is not a JSON object. */
  settings: Record<string, unknown> | null;
  parseError: string | null;
}

/** The PUT body was not JSON with an object at its root (decisions §3). */
export class InvalidSettingsJsonError extends Error {}

/** The file could not be written (disk full, a directory in the way...). */
export class SettingsWriteError extends Error {}

/**
 * The file's state for the agent-tool page. The agent and editors may rewrite it in place: a
 * read whose text is not a JSON object is tried again while the file looks mid-write
 * (settled-read.ts), so a read between their truncate and write is not reported as unusable.
 */
export function readSettingsFile(file: string, settle: SettleOptions = {}): Promise<SettingsFileState> {
  return readFileSettled(async () => {
    const { state, read } = await readSettingsFileOnce(file);
    // Too deep is never a torn write: a prefix of a file nests no deeper than the file.
    return { value: state, read, whole: state.settings !== null || state.parseError === JSON_TOO_DEEP };
  }, settle);
}

async function readSettingsFileOnce(file: string): Promise<{ state: SettingsFileState; read: TimedRead | null }> {
  const missing: SettingsFileState = {
    path: file,
    exists: false,
    mtime: null,
    sizeBytes: null,
    content: '{}',
    settings: {},
    parseError: null,
  };
  let stat;
  try {
    stat = await fs.stat(file);
  } catch (err) {
    if (isNotFound(err)) return { state: missing, read: null };
    return { state: { ...missing, exists: true, content: '', settings: null, parseError: `cannot be read: ${errorMessage(err)}` }, read: null };
  }
  const base = { path: file, exists: true, mtime: toMtime(stat.mtimeMs), sizeBytes: stat.size };
  if (!stat.isFile()) return { state: { ...base, content: '', settings: null, parseError: 'not a regular file' }, read: null };
  let read: TimedRead;
  try {
    // Opened non-blocking, regular files only, as readForeignText.
    read = await readFileTimed(file, READ_LIMITS.settings, openRegularFile);
  } catch (err) {
    if (err instanceof NotRegularFileError) return { state: { ...base, content: '', settings: null, parseError: 'not a regular file' }, read: null };
    return { state: { ...base, content: '', settings: null, parseError: `cannot be read: ${errorMessage(err)}` }, read: null };
  }
  const content = read.bytes.toString('utf8');
  try {
    return { state: { ...base, content, settings: parseSettingsObject(content), parseError: null }, read };
  } catch (err) {
    return { state: { ...base, content, settings: null, parseError: errorMessage(err) }, read };
  }
}

/** Opened non-blocking (a FIFO swapped in after the stat must not hang a thread), regular files only. */
async function readForeignText(file: string): Promise<string> {
  const handle = await openRegularFile(file);
  try {
    return await readTextBounded(handle, READ_LIMITS.settings, file);
  } finally {
    await handle.close();
  }
}

/** JSON whose root is an object; anything else throws InvalidSettingsJsonError. */
export function parseSettingsObject(content: string): Record<string, unknown> {
  if (jsonTooDeep(content)) throw new InvalidSettingsJsonError(JSON_TOO_DEEP);
  let value: unknown;
  try {
    value = JSON.parse(content);
  } catch (err) {
    throw new InvalidSettingsJsonError(errorMessage(err));
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new InvalidSettingsJsonError(`the root must be a JSON object, not ${describeRoot(value)}`);
  }
  return value as Record<string, unknown>;
}

export interface WriteSettingsOptions {
  backupsDir: string;
  /** {config_dir}, where the backups live. */
  home: string;
  now: Date;
}

/**
 * Validates, checks `expectedMtime`, backs up the old text (only when it changes), and writes
 * atomically, all under the file's lock so two racing PUTs give one success and one 409.
 * The text is written as sent: the user's formatting is theirs.
 */
export async function writeSettingsFile(
  file: string,
  content: string,
  expectedMtime: number | null | undefined,
  options: WriteSettingsOptions,
): Promise<{ mtime: number; backupPath?: string }> {
  parseSettingsObject(content);
  const target = await followLink(file);
  return serializeFile(target, async () => {
    const before = await statMtime(target);
    checkMtime(expectedMtime, before);
    try {
      const previous = await readIfFile(target);
      const backupPath =
        previous !== null && previous !== content
          ? await writeBackup(previous, { backupsDir: options.backupsDir, home: options.home, base: 'settings', suffix: '.json', keep: 20, now: options.now })
          : undefined;
      // writeFileAtomic keeps an existing file's mode and uses 0600 for a new one.
      await writeFileAtomic(target, content, { dirMode: 0o700 });
      const mtime = await advanceMtime(target, before);
      return backupPath ? { mtime, backupPath } : { mtime };
    } catch (err) {
      throw new SettingsWriteError(`${target}: ${errorMessage(err)}`);
    }
  });
}

/** A settings file that is a link (dotfile managers) is written through, not replaced. */
async function followLink(file: string): Promise<string> {
  try {
    return await fs.realpath(file);
  } catch {
    return path.resolve(file);
  }
}

async function readIfFile(file: string): Promise<string | null> {
  try {
    return await readForeignText(file);
  } catch (err) {
    if (isNotFound(err)) return null;
    throw err;
  }
}

function describeRoot(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return `a ${typeof value}`;
}
