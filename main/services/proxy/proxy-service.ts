import type { ServiceContext } from '../context.js';
import { AuthFiles } from './auth-files.js';
import { ErrorLogs } from './error-logs.js';
import { ProxyError } from './errors.js';
import { fetchProxyModels, type ModelList } from './models.js';
import { ProxyConfigFile, type AddressChangeHook } from './proxy-config-file.js';
import { ProxyControl, type ProxyControlOptions } from './proxy-control.js';
import { QuotaService } from './quota/quota-service.js';
import type { QuotaHttp } from './quota/types.js';
import { TrafficService } from './traffic/traffic-service.js';
import { UpdateChecker } from './update-check.js';

export interface ProxyServiceOptions extends ProxyControlOptions {
  /** Quota upstream calls (tests may wrap it). */
  quotaHttp?: QuotaHttp;
  updateFetchTimeoutMs?: number;
  /** A config.yaml PUT that moves the proxy: profiles pointing at the old address follow. */
  onAddressChange?: AddressChangeHook;
  /** After each write of proxy/config.yaml through the API. */
  onConfigWritten?: () => Promise<unknown>;
}

/**
 * The proxy area (spec 4.4, decisions §4): process control plus the files the proxy reads and
 * writes. Each concern lives in its own module; this object only holds them together for the
 * router and the app's start/stop hooks.
 */
export class ProxyService {
  readonly control: ProxyControl;
  readonly configFile: ProxyConfigFile;
  readonly errorLogs: ErrorLogs;
  readonly authFiles: AuthFiles;
  readonly quota: QuotaService;
  readonly updates: UpdateChecker;
  /** The request log: listing, stats, live `proxy-request` events. */
  readonly traffic: TrafficService;

  constructor(
    private readonly ctx: ServiceContext,
    options: ProxyServiceOptions = {},
  ) {
    this.control = new ProxyControl(ctx, options);
    this.configFile = new ProxyConfigFile(ctx.paths, ctx.clock, options.onAddressChange, options.onConfigWritten);
    this.errorLogs = new ErrorLogs(ctx.paths.proxyLogsDir);
    this.authFiles = new AuthFiles(ctx.paths.proxyAuthDir, ctx.paths.configDir);
    this.quota = new QuotaService(ctx, options.quotaHttp);
    this.updates = new UpdateChecker(ctx, options.updateFetchTimeoutMs);
    this.traffic = new TrafficService(ctx, this.control);
  }

  isRunning(): boolean {
    return this.control.isRunning();
  }

  async models(): Promise<ModelList> {
    const endpoint = this.control.endpoint();
    if (!endpoint) throw new ProxyError('not-running', 'Start the proxy first (POST /api/proxy/proxy-start)');
    return fetchProxyModels(endpoint);
  }

  /** App start: adopt a proxy left running, else start it when `proxy.auto_start` says so. */
  async startup(): Promise<void> {
    await this.authFiles.secure().catch((err: Error) => this.ctx.logger.warn(`proxy/auth: ${err.message}`));
    if (await this.control.adopt()) return;
    const autoStart = await this.ctx.appConfig.read().then((s) => s.config.proxy.auto_start, () => false);
    if (!autoStart) return;
    // In the background: the API must not wait up to 10 s for the proxy.
    void this.control.start().catch((err: Error) => this.ctx.logger.warn(`proxy auto-start failed: ${err.message}`));
  }

  async shutdown(keepRunning: boolean): Promise<void> {
    this.traffic.dispose();
    await this.control.shutdown(keepRunning);
  }
}
