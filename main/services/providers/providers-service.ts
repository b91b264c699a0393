import { errorMessage } from '../../infra/file-stat.js';
import type { OriginOverrides } from '../../infra/origin-overrides.js';
import type { ServiceContext } from '../context.js';
import { launchEnv } from '../profiles/launch-env.js';
import type { ProfilesService } from '../profiles/profiles-service.js';
import { proxyBaseUrl } from '../profiles/proxy-address.js';
import type { ProxyService } from '../proxy/proxy-service.js';
import { reloadUpstreams } from '../proxy/reload-upstreams.js';
import { SettingsError } from '../settings/errors.js';
import { requireValid, type SettingsStore } from '../settings/settings-store.js';
import type { ProviderFormat, TierModels } from './catalog-schema.js';
import { ProviderCatalog, type CatalogEntry } from './catalog.js';
import { testConnection, type ConnectionResult, type ConnectionTarget } from './connection-test.js';
import { ProvidersError } from './errors.js';
import { providerProfileEnv, tierModelList } from './profile-env.js';
import { UpstreamExistsError, withUpstream, type UpstreamEntry } from '../proxy/upstream-yaml.js';

export interface AddProviderRequest {
  template: string;
  apiKey?: string;
  name?: string;
  baseUrl?: string;
  models?: Partial<TierModels>;
  via?: 'direct' | 'proxy';
  timeoutMs?: number;
}

export interface AddProviderResult {
  profile: { name: string; path: string; baseUrl: string; via: 'direct' | 'proxy'; models: TierModels };
  upstream?: { name: string; format: ProviderFormat; baseUrl: string; models: string[] };
  /** Only for `via: proxy`: the proxy was started (or restarted to load the new upstream), or why not. */
  proxy?: { running: boolean; restarted: boolean; error?: string };
  test: ConnectionResult;
}

export interface TestRequest {
  template?: string;
  baseUrl?: string;
  format?: ProviderFormat;
  apiKey?: string;
  model?: string;
  timeoutMs?: number;
}

export interface ProvidersServiceDeps {
  store: SettingsStore;
  profiles: ProfilesService;
  proxy: ProxyService;
  /** The proxy API key in force: a profile routed through the proxy authenticates with it. */
  apiKey: () => Promise<string>;
}

/**
 * decisions §4.2: the provider catalogue, adding a provider in one step (a direct profile, or a
 * proxy upstream plus a profile routed through the proxy) and the connection test. Writes go
 * through the settings store and the proxy config file, the same validated, atomic paths the
 * rest of the app uses.
 */
export class ProvidersService {
  readonly catalog: ProviderCatalog;

  constructor(
    private readonly ctx: ServiceContext,
    private readonly deps: ProvidersServiceDeps,
  ) {
    this.catalog = new ProviderCatalog(ctx.paths.configDir, ctx.logger);
  }

  async list(): Promise<{ providers: CatalogEntry[] }> {
    return { providers: await this.catalog.list() };
  }

  async test(request: TestRequest): Promise<ConnectionResult> {
    return testConnection(await this.targetOf(request), await this.options(request.timeoutMs));
  }

  /** The test on an existing profile: what Claude Code would reach with its env. */
  async testProfile(profile: string, timeoutMs?: number): Promise<ConnectionResult> {
    const snapshot = await this.deps.store.read(profile);
    if (!snapshot) throw new SettingsError('not-found', `No settings file for profile ${profile}`);
    requireValid(snapshot);
    const env = launchEnv(snapshot.data.env);
    const bearer = env.ANTHROPIC_AUTH_TOKEN;
    const target: ConnectionTarget = {
      format: 'anthropic',
      baseUrl: env.ANTHROPIC_BASE_URL || 'https://api.anthropic.com',
      apiKey: bearer || env.ANTHROPIC_API_KEY || undefined,
      auth: bearer ? 'bearer' : 'x-api-key',
      model: env.ANTHROPIC_MODEL || undefined,
    };
    return testConnection(target, await this.options(timeoutMs));
  }

  async add(request: AddProviderRequest): Promise<AddProviderResult> {
    const entry = await this.template(request.template);
    if (entry.keyRequired && !request.apiKey) throw new ProvidersError('key-required', `${entry.name} needs an API key${entry.keyUrl ? `: get one at ${entry.keyUrl}` : ''}`);
    const name = request.name ?? entry.id;
    const path = this.deps.store.fileOf(name); // an invalid name is refused before anything is written
    if (await this.deps.store.read(name).catch(() => null)) throw new ProvidersError('profile-exists', `A profile named ${name} already exists: choose another name`);
    const via = request.via ?? (entry.format === 'anthropic' ? 'direct' : 'proxy');
    if (via === 'direct' && entry.format === 'openai') {
      throw new ProvidersError('needs-proxy', `${entry.name} speaks the OpenAI format, which Claude Code cannot use directly: add it through the proxy`);
    }
    const baseUrl = request.baseUrl ?? entry.baseUrl;
    const models: TierModels = { ...entry.models, ...request.models };
    const token = request.apiKey ?? entry.id; // local servers want some token and ignore it
    const test = await testConnection(
      { format: entry.format, baseUrl, apiKey: request.apiKey, auth: entry.auth, model: models.default, modelsEndpoint: entry.modelsEndpoint, keyUrl: entry.keyUrl },
      await this.options(request.timeoutMs),
    );
    if (via === 'direct') {
      await this.createProfile(name, providerProfileEnv({ baseUrl, token, auth: entry.auth, models }));
      return { profile: { name, path, baseUrl, via, models }, test };
    }
    const upstream: UpstreamEntry = { name, format: entry.format, base_url: baseUrl, ...(request.apiKey ? { api_key: request.apiKey } : {}), models: tierModelList(models) };
    const undo = await this.addUpstream(upstream);
    const proxyUrl = proxyBaseUrl(await this.deps.profiles.proxyAddress());
    try {
      await this.createProfile(name, providerProfileEnv({ baseUrl: proxyUrl, token: await this.deps.apiKey(), auth: 'bearer', models }));
    } catch (err) {
      await undo().catch((e: unknown) => this.ctx.logger.warn(`upstream ${name} not removed after the profile failed: ${errorMessage(e)}`));
      throw err;
    }
    return {
      profile: { name, path, baseUrl: proxyUrl, via, models },
      upstream: { name, format: entry.format, baseUrl, models: upstream.models },
      proxy: await reloadUpstreams(this.deps.proxy.control, { startWhenStopped: true }),
      test,
    };
  }

  private async template(id: string): Promise<CatalogEntry> {
    const entry = await this.catalog.find(id);
    if (!entry) throw new ProvidersError('not-found', `No provider ${id} in the catalogue (GET /api/providers/catalog lists them)`);
    return entry;
  }

  private async targetOf(request: TestRequest): Promise<ConnectionTarget> {
    if (request.template) {
      const entry = await this.template(request.template);
      return {
        format: entry.format,
        baseUrl: request.baseUrl ?? entry.baseUrl,
        apiKey: request.apiKey,
        auth: entry.auth,
        model: request.model ?? entry.models.default,
        modelsEndpoint: entry.modelsEndpoint,
        keyUrl: entry.keyUrl,
      };
    }
    if (!request.baseUrl || !request.format) throw new ProvidersError('invalid-target', 'Give a template, or a baseUrl and a format (anthropic or openai)');
    return { format: request.format, baseUrl: request.baseUrl, apiKey: request.apiKey, model: request.model };
  }

  private async options(timeoutMs?: number): Promise<{ overrides: OriginOverrides; timeoutMs?: number }> {
    const overrides = await this.ctx.appConfig.read().then(
      (s) => s.config.network.origin_overrides,
      () => ({}), // a broken config.yaml must not stop a connection test
    );
    return { overrides, ...(timeoutMs !== undefined ? { timeoutMs } : {}) };
  }

  private async createProfile(name: string, env: Record<string, string>): Promise<void> {
    await this.deps.store.update(name, (current) => {
      if (current) throw new ProvidersError('profile-exists', `A profile named ${name} already exists: choose another name`);
      return { next: { env }, result: undefined };
    });
    this.deps.profiles.announce('provider-added', [name]);
  }

  /** Appends the upstream through the proxy config file (validated, backed up, atomic); answers how to take it back. */
  private async addUpstream(upstream: UpstreamEntry): Promise<() => Promise<void>> {
    const file = this.deps.proxy.configFile;
    const before = await file.read();
    let text: string;
    try {
      text = withUpstream(before.content, upstream);
    } catch (err) {
      if (err instanceof UpstreamExistsError) throw new ProvidersError('upstream-exists', `${err.message}: choose another name`);
      throw err;
    }
    const written = await file.write(text, before.mtime);
    return async () => {
      await file.write(before.content, written.mtime);
    };
  }
}
