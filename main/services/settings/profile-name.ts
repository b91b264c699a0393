import path from 'node:path';
import { isPlainRelative, isWithin } from '../../infra/safe-path.js';
import type { Paths } from '../../infra/paths.js';
import { SettingsError } from './errors.js';

/** decisions §2; `auth` is taken by the token routes under /api/settings/auth/. */
const PROFILE_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;
const RESERVED = new Set(['auth']);
const SETTINGS_SUFFIX = '.settings.json';

export function isValidProfileName(name: string): boolean {
  return PROFILE_NAME.test(name) && !RESERVED.has(name);
}

/** The settings file of a client-named profile, proven to stay inside {config_dir}. */
export function settingsFileOf(paths: Paths, profile: string): string {
  if (!isValidProfileName(profile)) throw new SettingsError('invalid-profile', `Profile names match ${PROFILE_NAME.source} and are not "auth"`);
  const name = `${profile}${SETTINGS_SUFFIX}`;
  const file = paths.settings(profile);
  if (!isPlainRelative(name) || !isWithin(paths.configDir, path.resolve(file))) {
    throw new SettingsError('invalid-profile', 'Profile name leaves the config directory');
  }
  return file;
}

/** The profile a directory entry of {config_dir} belongs to, or null when it is not a settings file. */
export function profileOfFileName(fileName: string): string | null {
  if (!fileName.endsWith(SETTINGS_SUFFIX)) return null;
  const profile = fileName.slice(0, -SETTINGS_SUFFIX.length);
  return isValidProfileName(profile) ? profile : null;
}
