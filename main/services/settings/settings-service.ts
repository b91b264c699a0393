import fs from 'node:fs/promises';
import path from 'node:path';
import { removeStaleTempFiles } from '../../infra/atomic-write.js';
import { isNotFound, toMtime } from '../../infra/file-stat.js';
import type { Logger } from '../../infra/logger.js';
import { ensureOwnDir } from '../../infra/no-follow.js';
import { writtenDirs, type Paths } from '../../infra/paths.js';
import { envUrlProblem } from './base-url.js';
import { SettingsError } from './errors.js';
import { maskSettings, unmaskSettings } from './masking.js';
import { profileOfFileName } from './profile-name.js';
import { requireValid, type SettingsData, type SettingsStore } from './settings-store.js';

/** decisions §2: a created file lacking any of these gets a non-blocking warning. */
export const REQUIRED_ENV_KEYS = ['PROVIDER_BASE_URL', 'PROVIDER_AUTH_TOKEN', 'PROVIDER_MODEL'] as const;

export interface ProfileSettings {
  profile: string;
  settings: SettingsData;
  mtime: number;
  path: string;
}

export interface SettingsUpdate {
  settings: SettingsData & { env: Record<string, string> };
  expectedMtime?: number;
}

export interface SettingsUpdateResult {
  profile: string;
  mtime: number;
  created: boolean;
  backupPath?: string;
  warning?: string;
  missingFields?: string[];
}

export interface ProfileEntry {
  name: string;
  path: string;
  mtime: number;
}

/** Profile settings files: masked and raw reads, optimistic-locked updates, the profile list. */
export class SettingsService {
  constructor(
    private readonly store: SettingsStore,
    private readonly paths: Paths,
    private readonly logger: Logger,
  ) {}

  /**
   * Writers killed mid-write (crash, SIGKILL) leave temp files beside their target. The app
   * sweeps every directory it writes into (paths.ts derives the list) once at start.
   */
  async start(): Promise<void> {
    let removed = 0;
    for (const dir of writtenDirs(this.paths)) {
      // A link in place of one of our directories is replaced first, so the sweep (and every
      // later write) stays inside the home.
      if (dir !== this.paths.configDir) {
        for (const link of await ensureOwnDir(dir, this.paths.configDir, { create: false }).catch(() => [])) {
          this.logger.warn(`replaced the symbolic link ${link} by a real directory (links inside the home are not followed)`);
        }
      }
      removed += await removeStaleTempFiles(dir);
    }
    if (removed > 0) this.logger.info(`removed ${removed} stale temp file(s) left by interrupted writes`);
  }

  async get(profile: string, options: { raw: boolean }): Promise<ProfileSettings> {
    const snapshot = await this.store.read(profile);
    if (!snapshot) throw new SettingsError('not-found', `No settings file for profile ${profile}`);
    requireValid(snapshot);
    const settings = options.raw ? snapshot.data : maskSettings(snapshot.data);
    return { profile, settings, mtime: snapshot.mtime, path: snapshot.file };
  }

  /**
   * Replaces the profile's settings. Top-level fields the request leaves out keep their stored
   * value (a client that edits `env` does not wipe `presets` or keys it does not know); `env` is
   * replaced as sent, except that masked secrets (in `env` or anywhere else) keep their stored value.
   */
  async put(profile: string, update: SettingsUpdate): Promise<SettingsUpdateResult> {
    const { result: missing, write } = await this.store.update(profile, (current) => {
      if (current && update.expectedMtime !== undefined && update.expectedMtime !== current.mtime) {
        throw new SettingsError('conflict', `expectedMtime ${update.expectedMtime} does not match the file's mtime ${current.mtime}`, current.mtime);
      }
      const stored = current?.data;
      const next = unmaskSettings({ ...stored, ...update.settings }, stored);
      // Checked after unmasking: a masked URL-with-password stands for the stored value.
      const urlProblem = envUrlProblem(next.env);
      if (urlProblem) throw new SettingsError('invalid-settings', urlProblem);
      return { next, result: current ? [] : missingFields(next.env) };
    });
    return {
      profile,
      mtime: write.mtime,
      created: write.created,
      ...(write.backupPath ? { backupPath: write.backupPath } : {}),
      ...(write.created && missing.length > 0
        ? { warning: `Missing fields will use defaults: ${missing.join(', ')}`, missingFields: missing }
        : {}),
    };
  }

  /** Every `<profile>.settings.json` in {config_dir}, sorted by name in code-unit order. */
  async listProfiles(): Promise<ProfileEntry[]> {
    let names: string[];
    try {
      names = await fs.readdir(this.paths.configDir);
    } catch (err) {
      if (isNotFound(err)) return [];
      throw err;
    }
    const entries: ProfileEntry[] = [];
    for (const fileName of names) {
      const name = profileOfFileName(fileName);
      if (!name) continue;
      const file = path.join(this.paths.configDir, fileName);
      try {
        // lstat: a link in the place of a profile is not a profile (it is never followed).
        const stat = await fs.lstat(file);
        if (stat.isFile()) entries.push({ name, path: file, mtime: toMtime(stat.mtimeMs) });
      } catch {
        // removed between readdir and stat, or a dangling link: not a profile
      }
    }
    return entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  }
}

function missingFields(env: Record<string, string>): string[] {
  return REQUIRED_ENV_KEYS.filter((key) => !Object.hasOwn(env, key) || env[key]!.trim() === '');
}
