import type { ServiceContext } from './context.js';
import { AgentToolService } from './agent-tool/service.js';
import { AppConfigService } from './app-config/service.js';
import { ConfigFileError } from './app-config/store.js';
import { SharedService } from './shared/service.js';
import { BridgeService } from './bridge/bridge-service.js';
import { AccountService } from './accounts/account-service.js';
import { ProviderAccountsService } from './accounts/accounts-service.js';
import { createAccountProfile } from './accounts/account-profile.js';
import { createSettingsServices } from './settings/index.js';
import type { PresetsService } from './settings/presets-service.js';
import type { SettingsService } from './settings/settings-service.js';
import { TokensService } from './tokens/tokens-service.js';
import { UsageService } from './usage/usage-service.js';
import { ProxyService } from './proxy/proxy-service.js';
import { createProfilesArea, modelSuggestions, presetModels, type ModelSuggestion } from './profiles/index.js';
import type { ProfilesService } from './profiles/profiles-service.js';
import type { ClaudeCodeService } from './claude-code/claude-code-service.js';
import { ProvidersService } from './providers/providers-service.js';
import { CliproxyService } from './cliproxy/cliproxy-service.js';
import { CLIPROXY_PROVIDERS, CliproxyDemand } from './cliproxy/cliproxy-demand.js';
import { engineKind } from './proxy/engine-launch.js';

/**
 * Every domain service of the main process. Each area adds its service here and builds it
 * in `createServices`; routers receive this object, never module singletons.
 */
export interface Services {
  ctx: ServiceContext;
  shared: SharedService;
  agentTool: AgentToolService;
  appConfig: AppConfigService;
  bridge: BridgeService;
  settings: SettingsService;
  presets: PresetsService;
  tokens: TokensService;
  accounts: AccountService;
  /** Subscription accounts in proxy/auth/ (decisions §4.1). */
  providerAccounts: ProviderAccountsService;
  usage: UsageService;
  proxy: ProxyService;
  profiles: ProfilesService;
  claudeCode: ClaudeCodeService;
  /** The API provider catalogue, adding a provider, the connection test (decisions §4.2). */
  providers: ProvidersService;
  /** The managed CLIProxyAPI binary (decisions §4.1). */
  cliproxy: CliproxyService;
  /** Starts the managed binary when the proxy runs and an agy/kiro/gemini account needs it. */
  cliproxyDemand: CliproxyDemand;
  /** Models for the profile editor: the running proxy's, usage's, the presets' (issue 18). */
  modelSuggestions(): Promise<{ models: ModelSuggestion[] }>;
}

/** `usage`: a usage service the caller built (and may have started) before loading the rest. */
export async function createServices(ctx: ServiceContext, prebuilt: { usage?: UsageService } = {}): Promise<Services> {
  // Default tokens and proxy/config.yaml exist before the API answers its first request.
  // The proxy is built after the tokens, which ask it whether a change needs a restart.
  let proxy: ProxyService | undefined;
  const { store, ...settingsServices } = createSettingsServices(ctx);
  // Profiles follow the proxy's key and address (decisions §2); the key comes from the tokens.
  const area = createProfilesArea(ctx, { store, settings: settingsServices.settings, apiKey: async () => (await tokens.effective()).apiKey });
  const tokens: TokensService = new TokensService(ctx, {
    isProxyRunning: () => proxy?.isRunning() ?? false,
    onApiKeyChange: (oldKey, newKey) => area.followApiKey(oldKey, newKey),
  });
  await tokens.init();
  const cliproxy = new CliproxyService(ctx);
  // Every proxy start re-syncs proxy/config.yaml with the tokens (recreating it if deleted).
  proxy = new ProxyService(ctx, {
    // The managed binary follows the routing settings of proxy/config.yaml (hot-reloaded, issue 31.4).
    onConfigWritten: () => cliproxy.syncRouting(),
    prepareConfig: () => tokens.init(),
    // The address change rewrites the profiles that hold the key: one key step with the token changes.
    onAddressChange: (from, to) => tokens.serialized(() => area.followAddress(from, to)),
    onRestartKeyChange: (oldKey, newKey) => tokens.serialized(() => area.followApiKey(oldKey, newKey)),
  });
  const usage = prebuilt.usage ?? new UsageService(ctx);
  const running = proxy;
  const providerAccounts = new ProviderAccountsService(ctx, {
    onFirstAccount: async (provider) => void (await createAccountProfile(provider, { settings: settingsServices.settings, profiles: area.profiles })),
    engine: () => running.control.managementEndpoint(),
    cliproxy,
  });
  return {
    ctx,
    shared: new SharedService({ sharedDir: ctx.paths.sharedDir, agentDir: ctx.paths.agentDir }),
    agentTool: new AgentToolService(ctx),
    appConfig: new AppConfigService(ctx.appConfig, ctx.paths.backupsConfigDir, ctx.paths.configDir, ctx.clock, ctx.events),
    bridge: new BridgeService(ctx),
    ...settingsServices,
    tokens,
    accounts: new AccountService(ctx.appConfig),
    providerAccounts,
    usage,
    proxy,
    profiles: area.profiles,
    claudeCode: area.claudeCode,
    providers: new ProvidersService(ctx, { store, profiles: area.profiles, proxy, apiKey: async () => (await tokens.effective()).apiKey }),
    cliproxy,
    cliproxyDemand: new CliproxyDemand({
      events: ctx.events,
      logger: ctx.logger,
      proxyRunning: () => running.isRunning(),
      builtinEngine: async () => engineKind((await ctx.appConfig.read()).config.proxy) === 'builtin',
      accountNeedsBinary: async () => (await providerAccounts.list()).accounts.some((a) => CLIPROXY_PROVIDERS.includes(a.provider) && a.status !== 'paused'),
      isInstalled: () => cliproxy.isInstalled(),
      onInstalled: (listener) => cliproxy.onInstalled(listener),
      ensureRunning: () => cliproxy.ensureRunning(),
    }),
    modelSuggestions: () =>
      modelSuggestions({
        proxy: async () => (running.isRunning() ? (await running.models()).models.map((m) => m.id) : []),
        usage: async () => (await usage.models({})).models.map((m) => m.model),
        presets: () => presetModels(settingsServices.settings, settingsServices.presets),
      }),
  };
}

/**
 * Work done once the API listens: adopt a running proxy, auto-start the bridge, load caches.
 * The usage disk cache starts loading before the first await, so a read handed to the routes
 * right after this call waits for that load rather than scanning every log.
 */
export async function startServices(services: Services): Promise<void> {
  services.usage.start(); // loads the disk cache in the background (unless started already); usage reads wait for it
  await services.settings.start();
  await services.claudeCode.start().catch((err: unknown) => services.ctx.logger.warn(`Claude Code temp files not swept: ${String(err)}`));
  services.providerAccounts.start();
  services.cliproxyDemand.start(); // before the proxy's start-up: its "running" event may start the binary
  await unlessConfigBroken(services, 'bridge', () => services.bridge.startup());
  await unlessConfigBroken(services, 'proxy', () => services.proxy.startup());
}

/**
 * A config.yaml that cannot be parsed must not stop the app (issue 3): the step is skipped with
 * a warning, and the endpoints that need the config answer 500 "Invalid config file".
 */
async function unlessConfigBroken(services: Services, step: string, run: () => Promise<unknown>): Promise<void> {
  try {
    await run();
  } catch (err) {
    if (!(err instanceof ConfigFileError)) throw err;
    services.ctx.logger.warn(`${step}: start-up step skipped, config.yaml is invalid: ${err.message}`);
  }
}

/** Stops what the services started (children per their quit policy, timers, watchers). */
export async function stopServices(services: Services): Promise<void> {
  // One quit policy for every child: proxy.keep_running_on_quit (decisions §7).
  const keepRunning = await services.ctx.appConfig
    .read()
    .then((s) => s.config.proxy.keep_running_on_quit)
    .catch(() => false);
  await services.bridge.shutdown(keepRunning);
  await services.proxy.shutdown(keepRunning);
  await services.providerAccounts.stop();
  services.cliproxyDemand.stop();
  await services.cliproxyDemand.settled(); // a start under way ends before the binary is stopped
  await services.cliproxy.shutdown(keepRunning);
  await services.usage.stop();
}
