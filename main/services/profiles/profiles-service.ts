import { ProxyConfigError } from '../../engines/proxy-engine/config.js';
import { isRecord } from '../../infra/json-checks.js';
import { errorMessage } from '../../infra/file-stat.js';
import { ConfigFileError, deleteIn, setIn } from '../app-config/store.js';
import type { ServiceContext } from '../context.js';
import { SettingsError } from '../settings/errors.js';
import { requireValid, type SettingsStore } from '../settings/settings-store.js';
import type { SettingsService, SettingsUpdateResult } from '../settings/settings-service.js';
import { BASE_URL_KEYS, firstSet, MODEL_KEYS } from './launch-env.js';
import { hostOf, pointsAtProxy, proxyBaseUrl, readProxyAddress, type ProxyAddress } from './proxy-address.js';
import { routedThroughProxy, withPreset } from './profile-rewrite.js';

export interface ProfileCard {
  name: string;
  path: string;
  mtime: number;
  default?: true;
  /** host[:port] only. */
  baseUrl: string | null;
  model: string | null;
  usesProxy: boolean;
}

export interface ProfileList {
  profiles: ProfileCard[];
  default: string | null;
}

export interface RouteResult {
  success: true;
  profile: string;
  created: boolean;
  mtime: number;
  baseUrl: string;
}

export interface DeleteResult {
  success: true;
  profile: string;
  /** Where the file went: backups/<profile>.<stamp>.settings.json. */
  backupPath: string;
  /** True when the profile was the default and config.yaml's `default` was removed. */
  defaultCleared: boolean;
}

export interface ProfilesServiceDeps {
  store: SettingsStore;
  settings: SettingsService;
  /** The proxy API key in force (the tokens service's effective key). */
  apiKey: () => Promise<string>;
  /** Told (and awaited) after this service rewrote a profile: copies of it elsewhere may follow. */
  afterRewrite?: (profiles: string[]) => Promise<void>;
}

/**
 * Profiles as the things a user switches between (decisions §2): the default profile, applying a
 * preset, routing a profile through the local proxy. Every write goes through the settings
 * store (lock, backup, atomic write); every change is announced as the `profiles` event.
 */
export class ProfilesService {
  constructor(
    private readonly ctx: ServiceContext,
    private readonly deps: ProfilesServiceDeps,
  ) {}

  async list(): Promise<ProfileList> {
    // A broken config.yaml or proxy YAML must not hide the profiles: no default, no proxy marker.
    const [entries, stored, address] = await Promise.all([
      this.deps.settings.listProfiles(),
      this.storedDefault().catch((err: unknown) => {
        if (err instanceof ConfigFileError) return null;
        throw err;
      }),
      this.proxyAddressOrNull(),
    ]);
    const profiles: ProfileCard[] = [];
    for (const entry of entries) {
      const env = await this.envOf(entry.name);
      const baseUrl = firstSet(env, BASE_URL_KEYS);
      profiles.push({
        ...entry,
        ...(entry.name === stored ? { default: true as const } : {}),
        baseUrl: hostOf(baseUrl),
        model: firstSet(env, MODEL_KEYS),
        usesProxy: address !== null && pointsAtProxy(baseUrl, address),
      });
    }
    return { profiles, default: profiles.some((p) => p.default) ? stored : null };
  }

  /** The name config.yaml holds, whether or not that profile still has a file. */
  async storedDefault(): Promise<string | null> {
    const { config } = await this.ctx.appConfig.read();
    return typeof config.default === 'string' && config.default !== '' ? config.default : null;
  }

  async setDefault(profile: string): Promise<{ success: true; default: string }> {
    if (!(await this.deps.store.read(profile))) throw new SettingsError('not-found', `No settings file for profile ${profile}`);
    await this.ctx.appConfig.update((doc) => setIn(doc, ['default'], profile));
    this.announce('default', [profile]);
    return { success: true, default: profile };
  }

  /**
   * Deletes a profile: its file goes to backups/ under the backup naming (issue 28.5). When it
   * was the default, the default is cleared too, so nothing names a profile that is gone; a
   * config.yaml that cannot be parsed keeps its stale name (the list shows no default either way).
   */
  async remove(profile: string): Promise<DeleteResult> {
    const removed = await this.deps.store.remove(profile);
    if (!removed) throw new SettingsError('not-found', `No settings file for profile ${profile}`);
    let defaultCleared = false;
    try {
      if ((await this.storedDefault()) === profile) {
        await this.ctx.appConfig.update((doc) => deleteIn(doc, ['default']));
        defaultCleared = true;
      }
    } catch (err) {
      this.ctx.logger.warn(`profile ${profile} deleted, but the default could not be cleared: ${errorMessage(err)}`);
    }
    this.announce('deleted', [profile]);
    return { success: true, profile, backupPath: removed.backupPath, defaultCleared };
  }

  /** decisions §2 "Applying a preset", through the normal write path. */
  async applyPreset(profile: string, name: string, expectedMtime?: number): Promise<SettingsUpdateResult & { applied: string }> {
    const { write } = await this.deps.store.update(profile, (current) => {
      if (!current) throw new SettingsError('not-found', `No settings file for profile ${profile}`);
      if (expectedMtime !== undefined && expectedMtime !== current.mtime) {
        throw new SettingsError('conflict', `expectedMtime ${expectedMtime} does not match the file's mtime ${current.mtime}`, current.mtime);
      }
      requireValid(current);
      const presets = Array.isArray(current.data.presets) ? current.data.presets : [];
      const preset = presets.find((p): p is Record<string, unknown> => isRecord(p) && p.name === name);
      if (!preset) throw new SettingsError('preset-not-found', `Profile ${profile} has no preset named ${name}`);
      return { next: withPreset(current.data, preset), result: undefined };
    });
    await this.deps.afterRewrite?.([profile]);
    this.announce('preset', [profile]);
    return { profile, mtime: write.mtime, created: false, ...(write.backupPath ? { backupPath: write.backupPath } : {}), applied: name };
  }

  /** Points a profile (created when missing) at the local proxy with the proxy API key. */
  async routeThroughProxy(profile: string): Promise<RouteResult> {
    this.deps.store.fileOf(profile); // an invalid name is refused before anything is read
    const baseUrl = proxyBaseUrl(await this.proxyAddress());
    const apiKey = await this.deps.apiKey();
    const { write } = await this.deps.store.update(profile, (current) => {
      if (current) requireValid(current);
      return { next: routedThroughProxy(current?.data, { baseUrl, apiKey }), result: undefined };
    });
    await this.deps.afterRewrite?.([profile]);
    this.announce('route', [profile]);
    return { success: true, profile, created: write.created, mtime: write.mtime, baseUrl };
  }

  /** Tells the dashboard and the tray that profiles changed (SSE `profiles`). */
  announce(reason: string, profiles: string[] = []): void {
    this.ctx.events.emit('profiles', { reason, profiles });
  }

  /** proxy/config.yaml's address; a file that cannot be parsed is the config error it is. */
  async proxyAddress(): Promise<ProxyAddress> {
    try {
      return await readProxyAddress(this.ctx.paths.proxyConfig);
    } catch (err) {
      if (err instanceof ProxyConfigError) throw new ConfigFileError(err.message);
      throw err;
    }
  }

  private async proxyAddressOrNull(): Promise<ProxyAddress | null> {
    return this.proxyAddress().catch(() => null);
  }

  /** A profile's env, or null when its file cannot be read or parsed (still listed, with nulls). */
  private async envOf(profile: string): Promise<unknown> {
    try {
      const snapshot = await this.deps.store.read(profile);
      return snapshot?.data?.env ?? null;
    } catch {
      return null;
    }
  }
}
