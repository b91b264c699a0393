import type { Document } from 'yaml';
import { errorMessage } from '../../infra/file-stat.js';
import { ConfigFileError, deleteIn, setIn } from '../app-config/store.js';
import type { AppConfig } from '../app-config/schema.js';
import type { ServiceContext } from '../context.js';
import { TokensError } from './errors.js';
import { writeProxyAuth, type ProxyAuth } from './proxy-auth-sync.js';
import { generateApiKey, generateSecret, MASKED_API_KEY, MASKED_SECRET, tokenValueProblem } from './token-rules.js';

export interface TokenState {
  value: string;
  isCustom: boolean;
}

export interface TokensView {
  apiKey: TokenState;
  managementSecret: TokenState;
}

export interface TokensChange extends TokensView {
  success: true;
  message: string;
  restartRequired: boolean;
  /** Present when the tokens were saved but proxy/config.yaml could not follow. */
  warning?: string;
  /** Profiles rewritten with the new API key (decisions §2 key rotation). */
  updatedProfiles: string[];
}

export interface TokensInput {
  apiKey?: string;
  managementSecret?: string;
}

export const RESTART_MESSAGE = 'Restart the proxy to apply the change';

const AUTH = ['proxy', 'auth'];
const KEYS = { apiKey: 'api_key', managementSecret: 'management_secret' } as const;
type TokenName = keyof typeof KEYS;

export interface TokensServiceOptions {
  /** Wired by the proxy area; every token change answers `restartRequired` while the proxy runs. */
  isProxyRunning?: () => boolean;
  /** Wired by the profiles area: rewrites the profiles that used the old key; answers their names. */
  onApiKeyChange?: (oldKey: string, newKey: string) => Promise<string[]>;
}

/**
 * The proxy's API key and management secret (spec 4.2). They live in config.yaml under
 * `proxy.auth` (custom values beside generated `defaults`); every change is mirrored into the
 * `auth` keys of proxy/config.yaml.
 */
export class TokensService {
  private readonly isProxyRunning: () => boolean;
  private readonly onApiKeyChange: (oldKey: string, newKey: string) => Promise<string[]>;
  /** The tail of the key steps (issue 27.3): each runs after the previous one has settled. */
  private keyStep: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly ctx: ServiceContext,
    options: TokensServiceOptions = {},
  ) {
    this.isProxyRunning = options.isProxyRunning ?? (() => false);
    this.onApiKeyChange = options.onApiKeyChange ?? (async () => []);
  }

  /**
   * First start: generate the defaults and create proxy/config.yaml. A broken config.yaml must
   * not keep the app (and the dashboard that can fix it) from starting, so it is only logged.
   */
  async init(): Promise<void> {
    await this.serialized(async () => {
      try {
        const view = await this.ensureDefaults();
        await this.syncProxyConfig(view);
      } catch (err) {
        if (!(err instanceof ConfigFileError)) throw err;
        this.ctx.logger.warn(`tokens not initialised: ${err.message}`);
      }
    });
  }

  /**
   * Runs `task` as one key step: no token change (nor another step) runs meanwhile, so what it
   * reads of the key stays true until it ends. For the proxy address change, which rewrites the
   * profiles that hold the key.
   */
  serialized<T>(task: () => Promise<T>): Promise<T> {
    const run = this.keyStep.then(task, task);
    this.keyStep = run.catch(() => undefined);
    return run;
  }

  async view(options: { raw: boolean }): Promise<TokensView> {
    const view = await this.ensureDefaults();
    return options.raw ? view : mask(view);
  }

  /** The values the proxy must use, unmasked; for the proxy area. */
  async effective(): Promise<ProxyAuth> {
    const view = await this.ensureDefaults();
    return { apiKey: view.apiKey.value, managementSecret: view.managementSecret.value };
  }

  /** `""` resets a token to its default; the masked form sent back keeps the stored value. */
  async update(input: TokensInput): Promise<TokensChange> {
    const changes = (Object.keys(KEYS) as TokenName[]).flatMap((name) => {
      const value = input[name];
      return value === undefined ? [] : [[name, value] as const];
    });
    if (changes.length === 0) throw new TokensError('required', 'Send apiKey, managementSecret or both');
    for (const [name, value] of changes) {
      const problem = value === '' || isMasked(name, value) ? null : tokenValueProblem(name, value);
      if (problem) throw new TokensError('invalid-value', problem);
    }
    return this.change((doc) => {
      for (const [name, value] of changes) {
        if (isMasked(name, value)) continue;
        if (value === '') deleteIn(doc, [...AUTH, KEYS[name]]);
        else setIn(doc, [...AUTH, KEYS[name]], value);
      }
    });
  }

  /** Answers only the secret (spec 4.2): the key did not change. */
  async regenerateSecret(): Promise<Omit<TokensChange, 'apiKey' | 'updatedProfiles'>> {
    const { apiKey: _unchanged, updatedProfiles: _none, ...rest } = await this.change((doc) => setIn(doc, [...AUTH, KEYS.managementSecret], generateSecret()));
    return rest;
  }

  /** A new random API key; the secret did not change, so only the key is answered. */
  async regenerateApiKey(): Promise<Omit<TokensChange, 'managementSecret'>> {
    const { managementSecret: _unchanged, ...rest } = await this.change((doc) => setIn(doc, [...AUTH, KEYS.apiKey], generateApiKey()));
    return rest;
  }

  async reset(): Promise<TokensChange> {
    return this.change((doc) => {
      deleteIn(doc, [...AUTH, KEYS.apiKey]);
      deleteIn(doc, [...AUTH, KEYS.managementSecret]);
    });
  }

  /**
   * One serialised step (issue 27.3): read the old key, write the new one, mirror it into
   * proxy/config.yaml, rewrite the profiles (and Claude Code's copy). Two changes at once used to
   * read the same old key, so the second found no profile still on it and left them on a key
   * that neither config file held.
   */
  private change(mutate: (doc: Document) => void): Promise<TokensChange> {
    return this.serialized(() => this.changeNow(mutate));
  }

  private async changeNow(mutate: (doc: Document) => void): Promise<TokensChange> {
    const before = await this.ensureDefaults();
    const { snapshot } = await this.writeConfig((doc) => mutate(doc));
    const after = viewOf(snapshot.config);
    const warning = await this.syncProxyConfig(after);
    const updatedProfiles = after.apiKey.value !== before.apiKey.value ? await this.followKey(before.apiKey.value, after.apiKey.value) : [];
    return {
      success: true,
      ...mask(after),
      message: RESTART_MESSAGE,
      // Decisions §2: whenever the proxy runs, even when the values did not change (a no-op PUT,
      // a reset of defaults): the answer does not depend on comparing tokens.
      restartRequired: this.isProxyRunning(),
      ...(warning ? { warning } : {}),
      updatedProfiles,
    };
  }

  /** The key is saved whatever happens to the profiles; a failure there is logged, not answered as one. */
  private async followKey(oldKey: string, newKey: string): Promise<string[]> {
    try {
      return await this.onApiKeyChange(oldKey, newKey);
    } catch (err) {
      this.ctx.logger.warn(`profiles not updated after the API key change: ${errorMessage(err)}`);
      return [];
    }
  }

  /** Reads the tokens, generating any missing default first (also when a user deleted one). */
  private async ensureDefaults(): Promise<TokensView> {
    const { config } = await this.ctx.appConfig.read();
    if (hasDefaults(config)) return viewOf(config);
    const { snapshot } = await this.writeConfig((doc, current) => {
      if (!current.config.proxy.auth.defaults?.api_key) setIn(doc, [...AUTH, 'defaults', KEYS.apiKey], generateApiKey());
      if (!current.config.proxy.auth.defaults?.management_secret) {
        setIn(doc, [...AUTH, 'defaults', KEYS.managementSecret], generateSecret());
      }
    });
    return viewOf(snapshot.config);
  }

  private async writeConfig(mutate: Parameters<ServiceContext['appConfig']['update']>[0]) {
    try {
      return await this.ctx.appConfig.update(mutate);
    } catch (err) {
      if (err instanceof ConfigFileError || err instanceof TokensError) throw err;
      throw new TokensError('write-failed', errorMessage(err));
    }
  }

  /** Mirrors the tokens into proxy/config.yaml; a failure is reported, not fatal (see docs/settings.md). */
  private async syncProxyConfig(view: TokensView): Promise<string | undefined> {
    try {
      await writeProxyAuth(this.ctx.paths, { apiKey: view.apiKey.value, managementSecret: view.managementSecret.value }, new Date(this.ctx.clock.now()));
      return undefined;
    } catch (err) {
      const warning = `proxy/config.yaml was not updated: ${errorMessage(err)}`;
      this.ctx.logger.warn(warning);
      return warning;
    }
  }
}

function hasDefaults(config: AppConfig): boolean {
  return Boolean(config.proxy.auth.defaults?.api_key && config.proxy.auth.defaults?.management_secret);
}

function viewOf(config: AppConfig): TokensView {
  const auth = config.proxy.auth;
  const state = (custom: string | undefined, fallback: string | undefined): TokenState =>
    custom ? { value: custom, isCustom: true } : { value: fallback ?? '', isCustom: false };
  return {
    apiKey: state(auth.api_key, auth.defaults?.api_key),
    managementSecret: state(auth.management_secret, auth.defaults?.management_secret),
  };
}

function mask(view: TokensView): TokensView {
  return {
    apiKey: { value: MASKED_API_KEY, isCustom: view.apiKey.isCustom },
    managementSecret: { value: MASKED_SECRET, isCustom: view.managementSecret.isCustom },
  };
}

function isMasked(name: TokenName, value: string): boolean {
  return value === (name === 'apiKey' ? MASKED_API_KEY : MASKED_SECRET);
}
