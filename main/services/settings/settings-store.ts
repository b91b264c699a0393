import fs from 'node:fs/promises';
import path from 'node:path';
import { writeFileAtomic, type AtomicWriteOptions } from '../../infra/atomic-write.js';
import { openOwnFile } from '../../infra/no-follow.js';
import { writeBackup } from '../../infra/backup.js';
import type { Clock } from '../../infra/clock.js';
import { lockFile } from '../../infra/file-lock.js';
import { FileLockBusyError } from '../../infra/inter-process-lock.js';
import { errorMessage, isNotFound, toMtime } from '../../infra/file-stat.js';
import { advanceMtime } from '../../infra/mtime-advance.js';
import type { Paths } from '../../infra/paths.js';
import { SettingsError } from './errors.js';
import { settingsFileOf } from './profile-name.js';
import { isRecord } from '../../infra/json-checks.js';
import { JSON_TOO_DEEP, jsonTooDeep } from '../../infra/json-depth.js';
import { READ_LIMITS } from '../../infra/bounded-read.js';
import { readFileSettled, readFileTimed, type SettleOptions, type TimedRead } from '../../infra/settled-read.js';

export type SettingsData = Record<string, unknown>;

/** A settings file as it is on disk. */
export interface SettingsSnapshot {
  file: string;
  text: string;
  /** The bytes as read: what a backup keeps, exact even when the file is not valid UTF-8. */
  bytes: Buffer;
  mtime: number;
  /** The parsed object; undefined when the text is not a JSON object (see parseError). */
  data: SettingsData | undefined;
  parseError?: string;
}

export interface WriteOutcome {
  mtime: number;
  created: boolean;
  /** Present when an existing file was copied to backups/ before being replaced. */
  backupPath?: string;
}

/** What an update decides from the current file: the next content and what to answer. */
export type UpdatePlan<T> = (current: SettingsSnapshot | null) => { next: SettingsData; result: T };

export type FileWriter = (file: string, data: string, options?: AtomicWriteOptions) => Promise<unknown>;

export const BACKUPS_KEPT = 20;

export interface SettingsStoreOptions {
  paths: Paths;
  clock: Clock;
  /** Injected in tests to make a write fail; production uses writeFileAtomic. */
  writeFile?: FileWriter;
  /** Injected in tests to act between two reads of a file that looks mid-write. */
  settle?: SettleOptions;
}

/**
 * The one read and write path of `<profile>.settings.json`, shared by settings PUT and the
 * preset routes: per-file serialisation, backup only when the content changes, atomic write,
 * and an mtime that moves on every write.
 */
export class SettingsStore {
  private readonly writeFile: FileWriter;

  constructor(private readonly options: SettingsStoreOptions) {
    this.writeFile = options.writeFile ?? writeFileAtomic;
  }

  fileOf(profile: string): string {
    return settingsFileOf(this.options.paths, profile);
  }

  /** The file as it is now; null when it does not exist. */
  async read(profile: string): Promise<SettingsSnapshot | null> {
    return readSnapshot(this.fileOf(profile), this.options.settle);
  }

  /** Like read, but a file that is not a JSON object is a read failure. */
  async readValid(profile: string): Promise<(SettingsSnapshot & { data: SettingsData }) | null> {
    const snapshot = await this.read(profile);
    if (snapshot) requireValid(snapshot);
    return snapshot as (SettingsSnapshot & { data: SettingsData }) | null;
  }

  /** Runs `plan` against the current file under the file's lock and writes what it returns. */
  async update<T>(profile: string, plan: UpdatePlan<T>): Promise<{ result: T; write: WriteOutcome }> {
    const file = this.fileOf(profile);
    return lockFile(file, async () => {
      const current = await readSnapshot(file, this.options.settle);
      const { next, result } = plan(current);
      const write = await this.write(profile, file, current, `${JSON.stringify(next, null, 2)}\n`);
      return { result, write };
    }).catch((err: unknown) => {
      // Another process kept the file's lock for the whole wait: a write that could not be made.
      if (err instanceof FileLockBusyError) throw new SettingsError('write-failed', err.message);
      throw err;
    });
  }

  /**
   * Moves the profile's file into backups/ (same naming as any backup) and removes it, under the
   * file's lock. Answers null when there is no file. A file that is not valid JSON goes too: its
   * exact bytes are what the backup keeps.
   */
  async remove(profile: string): Promise<{ backupPath: string } | null> {
    const file = this.fileOf(profile);
    return lockFile(file, async () => {
      const current = await readSnapshot(file, this.options.settle);
      if (!current) return null;
      try {
        const backupPath = await this.backup(profile, current);
        await fs.rm(file, { force: true });
        return { backupPath };
      } catch (err) {
        throw new SettingsError('write-failed', errorMessage(err));
      }
    });
  }

  private backup(profile: string, current: SettingsSnapshot): Promise<string> {
    return writeBackup(current.bytes, {
      backupsDir: this.options.paths.backupsDir,
      home: this.options.paths.configDir,
      base: profile,
      suffix: '.settings.json',
      keep: BACKUPS_KEPT,
      now: new Date(this.options.clock.now()),
    });
  }

  private async write(profile: string, file: string, current: SettingsSnapshot | null, text: string): Promise<WriteOutcome> {
    if (current && current.text === text) return { mtime: current.mtime, created: false };
    try {
      const backupPath = current ? await this.backup(profile, current) : undefined;
      // A new file gets 0600 (it holds tokens); a replaced one keeps the mode its owner chose.
      await this.writeFile(file, text, current ? {} : { mode: 0o600 });
      const mtime = await advanceMtime(file, current?.mtime ?? null);
      return { mtime, created: current === null, ...(backupPath ? { backupPath } : {}) };
    } catch (err) {
      throw new SettingsError('write-failed', errorMessage(err));
    }
  }
}

export function requireValid(snapshot: SettingsSnapshot): asserts snapshot is SettingsSnapshot & { data: SettingsData } {
  if (!snapshot.data) {
    throw new SettingsError('read-failed', `${path.basename(snapshot.file)} is not a valid settings file: ${snapshot.parseError}`);
  }
}

/**
 * The file as it is on disk, null when missing. Bytes that do not parse are read again while the
 * file looks mid-write (another program rewriting it in place: settled-read.ts), so a reader
 * racing that writer answers the new content rather than a broken file.
 */
function readSnapshot(file: string, settle: SettleOptions = {}): Promise<SettingsSnapshot | null> {
  return readFileSettled(async () => {
    const read = await readOnce(file);
    if (!read) return { value: null, read, whole: true };
    const text = read.bytes.toString('utf8');
    const snapshot: SettingsSnapshot = { file, text, bytes: read.bytes, mtime: toMtime(read.before.mtimeMs), ...parseSettings(text) };
    // Too deep is never a torn write: a prefix of a file nests no deeper than the file.
    return { value: snapshot, read, whole: snapshot.data !== undefined || snapshot.parseError === JSON_TOO_DEEP };
  }, settle);
}

async function readOnce(file: string): Promise<TimedRead | null> {
  try {
    // One handle for stat and content, so the mtime belongs to the bytes read even if the
    // file is replaced meanwhile.
    return await readFileTimed(file, READ_LIMITS.settings, openOwnFile);
  } catch (err) {
    if (isNotFound(err)) return null;
    throw new SettingsError('read-failed', errorMessage(err));
  }
}

function parseSettings(text: string): { data: SettingsData | undefined; parseError?: string } {
  if (jsonTooDeep(text)) return { data: undefined, parseError: JSON_TOO_DEEP };
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    return { data: undefined, parseError: errorMessage(err) };
  }
  if (!isRecord(value)) return { data: undefined, parseError: 'the top level must be a JSON object' };
  return { data: value };
}
