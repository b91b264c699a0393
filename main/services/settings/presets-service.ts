import { SettingsError } from './errors.js';
import { requireValid, type SettingsData, type SettingsSnapshot, type SettingsStore } from './settings-store.js';
import { isRecord } from '../../infra/json-checks.js';

/** A named model preset (spec 2.2); other string fields a client sends are kept. */
export interface Preset {
  name: string;
  default: string;
  opus?: string;
  sonnet?: string;
  haiku?: string;
  [field: string]: string | undefined;
}

/**
 * Presets live in the profile's settings file under `presets`, so every change goes through
 * the settings store's single write path (lock, backup, atomic write).
 */
export class PresetsService {
  constructor(private readonly store: SettingsStore) {}

  /** A profile without a settings file has no presets yet (POST creates the file). */
  async list(profile: string): Promise<Record<string, unknown>[]> {
    const snapshot = await this.store.readValid(profile);
    if (!snapshot) return [];
    return presetsOf(snapshot.data, snapshot).filter(isRecord);
  }

  async add(profile: string, preset: Preset): Promise<Preset> {
    const { result } = await this.store.update(profile, (current) => {
      if (current) requireValid(current);
      const data: SettingsData = current?.data ?? { env: {} };
      const presets = current ? presetsOf(data, current) : [];
      if (presets.some((p) => isRecord(p) && p.name === preset.name)) {
        throw new SettingsError('preset-exists', `Profile ${profile} already has a preset named ${preset.name}`);
      }
      return { next: { ...data, presets: [...presets, preset] }, result: preset };
    });
    return result;
  }

  async remove(profile: string, name: string): Promise<void> {
    await this.store.update(profile, (current) => {
      if (!current) throw new SettingsError('not-found', `No settings file for profile ${profile}`);
      requireValid(current);
      const presets = presetsOf(current.data, current);
      const index = presets.findIndex((p) => isRecord(p) && p.name === name);
      if (index < 0) throw new SettingsError('preset-not-found', `Profile ${profile} has no preset named ${name}`);
      return { next: { ...current.data, presets: presets.filter((_, i) => i !== index) }, result: undefined };
    });
  }
}

/** The stored list; anything but an array is refused rather than silently replaced. */
function presetsOf(data: SettingsData, snapshot: SettingsSnapshot): unknown[] {
  if (data.presets === undefined) return [];
  if (!Array.isArray(data.presets)) {
    throw new SettingsError('read-failed', `${snapshot.file}: "presets" must be an array`);
  }
  return data.presets;
}
