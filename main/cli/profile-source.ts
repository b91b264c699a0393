import { systemClock } from '../infra/clock.js';
import { errorMessage } from '../infra/file-stat.js';
import { createLogger, type LogLevel } from '../infra/logger.js';
import { createPaths, resolveHomes, type Paths } from '../infra/paths.js';
import { AppConfigStore, ConfigFileError } from '../services/app-config/store.js';
import type { ServiceContext } from '../services/context.js';
import { AppEvents } from '../services/events.js';
import { ProfilesService } from '../services/profiles/profiles-service.js';
import { isValidProfileName } from '../services/settings/profile-name.js';
import { SettingsService } from '../services/settings/settings-service.js';
import { SettingsStore, type SettingsData } from '../services/settings/settings-store.js';
import { CliError } from './args.js';

/** A profile as the terminal commands use it. */
export interface CliProfile {
  name: string;
  data: SettingsData;
}

/**
 * The services the API uses, on the files of {config_dir}: the terminal commands read and write
 * profiles without a running app. Every problem a user can fix is a CliError (one line, exit 2).
 */
export class ProfileSource {
  readonly paths: Paths;
  readonly ctx: ServiceContext;
  readonly store: SettingsStore;
  readonly settings: SettingsService;
  readonly profiles: ProfilesService;

  constructor(env: NodeJS.ProcessEnv) {
    this.paths = createPaths(resolveHomes(env));
    const logger = createLogger((env.SWITCHBOARD_LOG_LEVEL as LogLevel | undefined) ?? 'warn');
    this.ctx = { paths: this.paths, clock: systemClock, logger, events: new AppEvents(), appConfig: new AppConfigStore(this.paths.appConfig), env };
    this.store = new SettingsStore({ paths: this.paths, clock: systemClock });
    this.settings = new SettingsService(this.store, this.paths, logger);
    // The terminal commands never route through the proxy, so they need no API key.
    this.profiles = new ProfilesService(this.ctx, { store: this.store, settings: this.settings, apiKey: () => Promise.reject(new Error('not available here')) });
  }

  /** The named profile, or the default one when none is named. */
  async resolve(name: string | undefined): Promise<CliProfile> {
    const chosen = name ?? (await this.configured((p) => p.storedDefault()));
    if (chosen === null) throw new CliError('no profile named and no default profile set (run `switchboard use <profile>` or name one)');
    if (!isValidProfileName(chosen)) throw new CliError(`invalid profile name '${chosen}'`);
    let snapshot;
    try {
      snapshot = await this.store.read(chosen);
    } catch (err) {
      throw new CliError(`profile '${chosen}' cannot be read: ${errorMessage(err)}`);
    }
    if (!snapshot) throw new CliError(`unknown profile '${chosen}'${name === undefined ? ' (the default profile in config.yaml)' : ''}${await this.known()}`);
    if (!snapshot.data) throw new CliError(`profile '${chosen}' is not valid JSON: ${this.paths.settings(chosen)}: ${snapshot.parseError}`);
    return { name: chosen, data: snapshot.data };
  }

  /** config.yaml read through `read`; a broken file is one clear line. */
  async configured<T>(read: (profiles: ProfilesService) => Promise<T>): Promise<T> {
    try {
      return await read(this.profiles);
    } catch (err) {
      if (err instanceof ConfigFileError) throw new CliError(`config.yaml is invalid: ${err.message}`);
      throw err;
    }
  }

  /** "; profiles: a, b" to help a typo, or a hint when there are none. */
  private async known(): Promise<string> {
    const names = (await this.settings.listProfiles().catch(() => [])).map((p) => p.name);
    return names.length > 0 ? `; profiles: ${names.join(', ')}` : `; no profiles in ${this.paths.configDir}`;
  }
}
