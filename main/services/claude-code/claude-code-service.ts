import fs from 'node:fs/promises';
import path from 'node:path';
import { writeFileAtomic } from '../../infra/atomic-write.js';
import { writeBackup } from '../../infra/backup.js';
import { serializeFile } from '../../infra/file-lock.js';
import { errorMessage, isNotFound, toMtime } from '../../infra/file-stat.js';
import { isRecord } from '../../infra/json-checks.js';
import type { ServiceContext } from '../context.js';
import { SettingsError } from '../settings/errors.js';
import type { SettingsStore } from '../settings/settings-store.js';
import { launchEnv } from '../profiles/launch-env.js';
import { readRecord, removeRecord, sha256, writeRecord, type AppliedRecord } from './applied-record.js';
import { ClaudeCodeError } from './errors.js';

export interface ClaudeCodeStatus {
  path: string;
  exists: boolean;
  applied: { profile: string; appliedAt: number; keys: string[] } | null;
  editedSince: boolean;
  canUndo: boolean;
}

export interface ClaudeCodeApplied {
  success: true;
  path: string;
  profile: string;
  keys: string[];
  /** null when there was no file to back up. */
  backupPath: string | null;
}

const BACKUP = { base: 'claude-code-settings', suffix: '.json', keep: 20 } as const;

interface CurrentFile {
  bytes: Buffer;
  mode: number;
  mtime: number;
}

/**
 * "Use for Claude Code" (issue 18): merges a profile's env, as launched, into the `env` of
 * `{agent_dir}/settings.json`, leaving every other key and env entry as it was; backup first,
 * atomic write, and one level of exact undo.
 */
export class ClaudeCodeService {
  private readonly file: string;
  private readonly recordFile: string;

  constructor(
    private readonly ctx: ServiceContext,
    private readonly store: SettingsStore,
  ) {
    this.file = path.join(ctx.paths.agentDir, 'settings.json');
    this.recordFile = ctx.paths.claudeCodeRecord;
  }

  async status(): Promise<ClaudeCodeStatus> {
    const [current, record] = await Promise.all([readCurrent(this.file), this.record()]);
    return {
      path: this.file,
      exists: current !== null,
      applied: record ? { profile: record.profile, appliedAt: record.appliedAt, keys: record.keys } : null,
      editedSince: record ? editedSince(record, current) : false,
      canUndo: record !== null,
    };
  }

  /**
   * `keepUndo`: the record's "previous file" stays the one before the user's apply, so a refresh
   * made for them (key rotation) does not become what Undo restores.
   */
  async apply(profile: string, options: { keepUndo?: boolean } = {}): Promise<ClaudeCodeApplied> {
    const snapshot = await this.store.readValid(profile);
    if (!snapshot) throw new SettingsError('not-found', `No settings file for profile ${profile}`);
    const env = launchEnv(snapshot.data.env);
    return serializeFile(this.file, async () => {
      const current = await readCurrent(this.file);
      const settings = current ? parseSettings(current.bytes, this.file) : {};
      const previousRecord = await this.record();
      const merged = mergeEnv(settings.env, env, previousRecord && !editedSince(previousRecord, current) ? previousRecord : null);
      const text = `${JSON.stringify({ ...settings, env: merged }, null, 2)}\n`;
      try {
        const backupPath = current ? await writeBackup(current.bytes, { backupsDir: this.ctx.paths.backupsDir, home: this.ctx.paths.configDir, ...BACKUP, now: new Date(this.ctx.clock.now()) }) : null;
        await writeFileAtomic(await linkTarget(this.file), text, current ? {} : { mode: 0o600 });
        const mtime = toMtime((await fs.stat(this.file)).mtimeMs);
        const keys = Object.keys(env).sort();
        await writeRecord(this.recordFile, {
          path: this.file,
          profile,
          appliedAt: this.ctx.clock.now(),
          keys,
          values: Object.fromEntries(keys.map((k) => [k, sha256(env[k]!)])),
          written: { sha256: sha256(text), mtime },
          previous:
            options.keepUndo && previousRecord
              ? previousRecord.previous
              : current
                ? { existed: true, contentBase64: current.bytes.toString('base64'), mode: current.mode }
                : { existed: false },
        });
        return { success: true as const, path: this.file, profile, keys, backupPath };
      } catch (err) {
        throw new ClaudeCodeError('write-failed', errorMessage(err));
      }
    });
  }

  /**
   * After key rotation or a proxy move rewrote `profiles`: the profile applied here follows, when
   * the file is as Switchboard left it (a file edited since is the user's; it is left alone).
   */
  async followProfiles(profiles: string[]): Promise<boolean> {
    const status = await this.status();
    if (!status.applied || status.editedSince || !profiles.includes(status.applied.profile)) return false;
    await this.apply(status.applied.profile, { keepUndo: true });
    return true;
  }

  /** Puts back exactly the file as it was before the last apply (removes it when there was none). */
  async undo(): Promise<{ success: true; path: string; restored: true }> {
    return serializeFile(this.file, async () => {
      const record = await this.record();
      if (!record) throw new ClaudeCodeError('nothing-to-undo', 'No Claude Code settings change of Switchboard is recorded');
      const current = await readCurrent(this.file);
      try {
        // Edits made since the apply are not lost: the file as it is now is backed up first.
        if (current) await writeBackup(current.bytes, { backupsDir: this.ctx.paths.backupsDir, home: this.ctx.paths.configDir, ...BACKUP, now: new Date(this.ctx.clock.now()) });
        if (record.previous.existed) {
          await writeFileAtomic(await linkTarget(this.file), Buffer.from(record.previous.contentBase64, 'base64'), { mode: record.previous.mode });
        } else {
          await fs.rm(this.file, { force: true });
        }
        await removeRecord(this.recordFile);
      } catch (err) {
        throw new ClaudeCodeError('write-failed', errorMessage(err));
      }
      return { success: true as const, path: this.file, restored: true as const };
    });
  }

  /** A record made for another agent dir (SWITCHBOARD_AGENT_DIR changed) does not apply here. */
  private async record(): Promise<AppliedRecord | null> {
    const record = await readRecord(this.recordFile);
    return record && record.path === this.file ? record : null;
  }
}

/**
 * The file's `env` with the profile's on top. Keys the last apply wrote that this profile does not
 * set are taken back (another profile's model must not linger) when they still hold what was written.
 */
export function mergeEnv(current: unknown, env: Record<string, string>, previous: AppliedRecord | null): Record<string, unknown> {
  const merged: Record<string, unknown> = { ...(isRecord(current) ? current : {}) };
  for (const key of previous?.keys ?? []) {
    const value = merged[key];
    if (!Object.hasOwn(env, key) && typeof value === 'string' && sha256(value) === previous!.values[key]) delete merged[key];
  }
  return Object.assign(merged, env);
}

/**
 * Edited = the content differs from what was written. A save that changes only the mtime (an editor
 * saving without changes, `touch`) is not an edit; the hash is only computed when the mtime moved.
 */
function editedSince(record: AppliedRecord, current: CurrentFile | null): boolean {
  if (!current) return true;
  if (current.mtime === record.written.mtime) return false;
  return sha256(current.bytes) !== record.written.sha256;
}

/** The settings object; a file that is not a JSON object (or whose env is no object) is never overwritten. */
function parseSettings(bytes: Buffer, file: string): Record<string, unknown> {
  let value: unknown;
  try {
    value = JSON.parse(bytes.toString('utf8'));
  } catch (err) {
    throw new ClaudeCodeError('invalid-json', `${file}: ${errorMessage(err)}`);
  }
  if (!isRecord(value)) throw new ClaudeCodeError('invalid-json', `${file}: the top level must be a JSON object`);
  if (value.env !== undefined && !isRecord(value.env)) throw new ClaudeCodeError('invalid-json', `${file}: "env" must be an object`);
  return value;
}

/**
 * Where a write of the agent's settings.json goes: through a symlink to its target (dotfile
 * managers such as stow link it into a repository; an atomic rename over the link would cut it
 * off), else the path itself.
 */
async function linkTarget(file: string): Promise<string> {
  try {
    return await fs.realpath(file);
  } catch {
    return file; // not there yet, or a dangling link: written in place
  }
}

async function readCurrent(file: string): Promise<CurrentFile | null> {
  try {
    const handle = await fs.open(file, 'r');
    try {
      const stat = await handle.stat();
      return { bytes: await handle.readFile(), mode: stat.mode & 0o777, mtime: toMtime(stat.mtimeMs) };
    } finally {
      await handle.close();
    }
  } catch (err) {
    if (isNotFound(err)) return null;
    throw err;
  }
}
