import fs from 'node:fs/promises';
import path from 'node:path';
import { resourcePath } from '../../infra/app-root.js';
import { cliproxyRunDir, cliproxyStartingFile } from '../../infra/cliproxy-files.js';
import { setIn } from '../app-config/store.js';
import type { ServiceContext } from '../context.js';
import { compareVersions, type CliproxyBackend } from './backends.js';
import { installCliproxy, isKnownBad, readInstalled, type InstalledBinary } from './installer.js';
import { fetchRelease, type Overrides } from './release-feed.js';
import { CliproxyRunner } from './cliproxy-runner.js';
import { ManagementClient } from './management-client.js';
import { accountRoutingOf, applyBinaryRouting, readProxyConfigText } from './binary-config.js';

export interface CliproxyStatus {
  installed: boolean;
  backend: CliproxyBackend;
  version: string | null;
  path: string | null;
  pinned: string | null;
  latestVersion: string | null;
  knownBad: string[];
  running: boolean;
  port: number | null;
}

export interface InstallRequest {
  backend?: CliproxyBackend;
  version?: string;
  force?: boolean;
}

/**
 * The managed CLIProxyAPI binary (decisions §4.1): what is installed in `{config_dir}/proxy/bin/`,
 * the pin and backend in config.yaml `proxy.cliproxy`, the known-bad list shipped as data.
 */
export class CliproxyService {
  readonly binDir: string;
  private installing: Promise<InstalledBinary> | null = null;
  readonly runner: CliproxyRunner;
  /** The running binary's `/v0/management/*`, with the plaintext secret from Switchboard's own store. */
  readonly management: ManagementClient;

  constructor(
    private readonly ctx: ServiceContext,
    private readonly knownBadFile = resourcePath('cliproxy-known-bad.json'),
  ) {
    this.binDir = path.join(ctx.paths.proxyDir, 'bin');
    const files = { runDir: cliproxyRunDir(ctx.paths.proxyDir), authDir: path.join(ctx.paths.proxyDir, 'auth'), startingFile: cliproxyStartingFile(ctx.paths.proxyDir) };
    this.runner = new CliproxyRunner(ctx, files, async () => (await readInstalled(this.binDir))?.path ?? null, (configFile) => this.syncRouting(configFile));
    this.management = new ManagementClient(async () => {
      const { port, secret } = await this.runner.credentials();
      return { port: this.runner.status().port ?? port, secret };
    });
  }

  /**
   * Copies proxy/config.yaml's `routing.account_strategy` and `routing.session_affinity` into the
   * binary's generated config (binary-config.ts). Called before each start and after every write
   * of proxy/config.yaml through the API; a running binary hot-reloads it. True when rewritten.
   */
  async syncRouting(configFile = path.join(cliproxyRunDir(this.ctx.paths.proxyDir), 'config.yaml')): Promise<boolean> {
    return applyBinaryRouting(configFile, accountRoutingOf(await readProxyConfigText(this.ctx.paths.proxyConfig)));
  }

  private readonly installedListeners = new Set<() => void>();

  /** Called after each successful install (the lazy start checks whether an account is waiting for the binary). */
  onInstalled(listener: () => void): () => void {
    this.installedListeners.add(listener);
    return () => this.installedListeners.delete(listener);
  }

  /** Install progress, as the `cliproxy-install` events carry it. */
  onProgress(listener: (p: { received: number; total: number | null }) => void): () => void {
    return this.ctx.events.on('cliproxy-install', listener);
  }

  /** Starts the binary unless it runs; the engine and accounts call this when an account needs it. */
  async ensureRunning(): Promise<{ port: number; pid: number }> {
    return this.runner.start();
  }

  /** Whether a binary is installed in proxy/bin/ (the lazy start asks before starting it). */
  async isInstalled(): Promise<boolean> {
    return (await readInstalled(this.binDir)) !== null;
  }

  async isRunning(): Promise<boolean> {
    await this.runner.adopt();
    return this.runner.status().state === 'running';
  }

  async stop(): Promise<{ stopped: boolean }> {
    return { stopped: await this.runner.stop() };
  }

  /** Stops the binary with the app, unless the quit policy keeps children running (then a next run adopts it). */
  async shutdown(keepRunning: boolean): Promise<void> {
    if (!keepRunning) await this.runner.stop().catch(() => undefined);
    await this.runner.dispose();
  }

  async knownBad(backend: CliproxyBackend): Promise<string[]> {
    try {
      const data = JSON.parse(await fs.readFile(this.knownBadFile, 'utf8')) as Record<string, unknown>;
      const list = data[backend];
      return Array.isArray(list) ? list.filter((v): v is string => typeof v === 'string') : [];
    } catch {
      return [];
    }
  }

  /** `force`: ask the feed even when its answer of the last hour is kept (the card's "Check for updates"). */
  async status(opts: { checkLatest?: boolean; force?: boolean } = {}): Promise<CliproxyStatus> {
    const { config } = await this.ctx.appConfig.read();
    const installed = await readInstalled(this.binDir);
    const backend = installed?.backend ?? config.proxy.cliproxy.backend;
    await this.runner.adopt();
    const run = this.runner.status();
    let latestVersion: string | null = null;
    if (opts.checkLatest) {
      // Offline: the status still answers. Kept an hour like the update check's, so opening the
      // dashboard does not spend GitHub's 60-an-hour anonymous API budget.
      latestVersion = await this.latestRelease(backend, config.network.origin_overrides, opts.force ?? false).catch(() => null);
    }
    return {
      installed: installed !== null,
      backend,
      version: installed?.version ?? null,
      path: installed?.path ?? null,
      pinned: config.proxy.cliproxy.pin,
      latestVersion,
      knownBad: await this.knownBad(backend),
      running: run.state === 'running',
      port: run.state === 'running' ? (run.port ?? null) : null,
    };
  }

  /**
   * The installed binary for the update check (decisions §4.1): `latestVersion` is the newest
   * allowed (the pin, else the feed's latest unless known-bad). Null when nothing is installed.
   * The feed's answer is kept an hour unless `force`.
   */
  async updateInfo(opts: { force?: boolean } = {}): Promise<{ currentVersion: string; latestVersion: string; hasUpdate: boolean; error?: string } | null> {
    const installed = await readInstalled(this.binDir);
    if (!installed) return null;
    const { config } = await this.ctx.appConfig.read();
    let latest = config.proxy.cliproxy.pin;
    let error: string | undefined;
    if (!latest) {
      try {
        latest = await this.latestRelease(installed.backend, config.network.origin_overrides, opts.force ?? false);
      } catch (err) {
        error = `CLIProxyAPI release feed: ${(err as Error).message}`;
      }
      if (latest && isKnownBad(latest, await this.knownBad(installed.backend))) latest = null;
    }
    const latestVersion = latest ?? installed.version;
    return { currentVersion: installed.version, latestVersion, hasUpdate: compareVersions(latestVersion, installed.version) > 0, ...(error ? { error } : {}) };
  }

  private latestCache: { backend: CliproxyBackend; version: string; at: number } | null = null;

  /** The feed's latest version for `backend`, kept an hour unless `force`. */
  private async latestRelease(backend: CliproxyBackend, overrides: Overrides, force: boolean): Promise<string> {
    const now = this.ctx.clock.now();
    const cached = this.latestCache;
    if (!force && cached && cached.backend === backend && now - cached.at < 60 * 60_000) return cached.version;
    const version = (await fetchRelease(backend, null, overrides)).version;
    this.latestCache = { backend, version, at: now };
    return version;
  }

  /** Installs the requested version, else the pin, else the latest release; one install at a time. */
  async install(req: InstallRequest): Promise<InstalledBinary & { previousVersion: string | null; restarted: boolean }> {
    if (this.installing) await this.installing.catch(() => undefined);
    const { config } = await this.ctx.appConfig.read();
    const backend = req.backend ?? config.proxy.cliproxy.backend;
    const version = req.version ?? config.proxy.cliproxy.pin;
    const previous = await readInstalled(this.binDir);
    const run = installCliproxy({
      binDir: this.binDir,
      backend,
      version,
      force: req.force ?? false,
      knownBad: await this.knownBad(backend),
      overrides: config.network.origin_overrides,
      onProgress: (p) => this.ctx.events.emit('cliproxy-install', { backend, version: version ?? 'latest', ...p }),
    });
    this.installing = run;
    try {
      const done = await run;
      if (config.proxy.cliproxy.backend !== backend) await this.ctx.appConfig.update((doc) => setIn(doc, ['proxy', 'cliproxy', 'backend'], backend));
      // Update: the running binary is replaced by the new one (the old process is stopped first).
      let restarted = false;
      await this.runner.adopt();
      if (this.runner.status().state === 'running') {
        await this.runner.restart();
        restarted = true;
      }
      for (const listener of this.installedListeners) listener();
      return { ...done, previousVersion: previous?.version ?? null, restarted };
    } finally {
      this.installing = null;
    }
  }

  async setPin(version: string | null): Promise<{ pinned: string | null }> {
    await this.ctx.appConfig.update((doc) => setIn(doc, ['proxy', 'cliproxy', 'pin'], version));
    return { pinned: version };
  }

  /** Removes the binary and its version record; `proxy/auth/` (the accounts) stays. */
  async uninstall(): Promise<{ removed: boolean }> {
    await this.runner.stop();
    const installed = await readInstalled(this.binDir);
    await fs.rm(this.binDir, { recursive: true, force: true });
    return { removed: installed !== null };
  }
}
