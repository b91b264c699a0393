import { DEFAULT_PROXY_HOST, loadProxyConfig } from '../../engines/proxy-engine/config.js';
import { SESSIONS_ROUTE } from '../../engines/proxy-engine/management.js';
import { errorMessage } from '../../infra/file-stat.js';
import { isHttpOk } from '../../infra/http-probe.js';
import { getLocalJson, urlHost } from '../../infra/http-json.js';
import type { KillTree } from '../../infra/kill-tree.js';
import { ProcessSupervisor, StartCancelledError, type SupervisorStatus } from '../../infra/process-supervisor.js';
import type { ServiceContext } from '../context.js';
import { engineKind, proxyLaunchSpec, type EngineKind } from './engine-launch.js';
import { ProxyError } from './errors.js';

/** How long a started proxy has to answer `GET /` with 200 (decisions §4). */
export const PROXY_READY_TIMEOUT_MS = 10_000;

export interface ProxyControlOptions {
  readyTimeoutMs?: number;
  readyPollMs?: number;
  stopGraceMs?: number;
  exitWatchMs?: number;
  killTree?: KillTree;
  /** Makes sure proxy/config.yaml exists and carries the current tokens (the tokens service). */
  prepareConfig?: () => Promise<void>;
  /**
   * A restart found the proxy on another API key than the one it ran with (a hand edit of
   * config.yaml): the profiles that used the old key follow (the profiles area); answers their names.
   */
  onRestartKeyChange?: (oldKey: string, newKey: string) => Promise<string[]>;
}

export type ProxyStatus = { running: false } | { running: true; port: number; pid: number; sessionCount: number; startedAt: number };
export interface ProxyStartResult { started: boolean; alreadyRunning: boolean; port: number }
export type ProxyStopResult = { stopped: true; pid: number; sessionCount: number } | { stopped: false; message: string };
/** `restarted` false: it was not running, and was started. */
export interface ProxyRestartResult { restarted: boolean; port: number; pid: number; updatedProfiles: string[] }

/** What the running proxy was started (or adopted) with: where to reach it and with which keys. */
interface RunningView {
  host: string;
  apiKey?: string;
  managementSecret?: string;
  engine: EngineKind;
}

export const NOT_RUNNING_MESSAGE = 'Proxy is not running';
/** The stop's answer when it cancelled a start before the engine was spawned. */
export const START_CANCELLED_MESSAGE = 'Proxy start cancelled before the proxy ran';
/** The cancelled start's 409 message. */
export const CANCELLED_BY_STOP_MESSAGE = 'A proxy-stop request cancelled this start; the proxy is not running';

/** Start, stop, status and adoption of the proxy process through the shared supervisor. */
export class ProxyControl {
  private readonly supervisor: ProcessSupervisor;
  private view: RunningView = { host: DEFAULT_PROXY_HOST, engine: 'builtin' };
  private next: Promise<Parameters<typeof proxyLaunchSpec>> | undefined;
  /** Restarts run one after another: a second request restarts again, with what is current then. */
  private restarts: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly ctx: ServiceContext,
    private readonly options: ProxyControlOptions = {},
  ) {
    this.supervisor = new ProcessSupervisor({
      name: 'proxy',
      port: async () => (await this.prepare())[1].server.port,
      launch: async () => proxyLaunchSpec(...(await this.prepare())),
      // 5 s, as the bridge's: a slow answer on a busy machine must not make adoption forget a live engine.
      isHealthy: (port) => isHttpOk(`http://${urlHost(this.view.host)}:${port}/`, 5_000),
      // decisions §4: healthy within 10 s, or the start failed (a crash ends the wait at once).
      readyTimeoutMs: options.readyTimeoutMs ?? PROXY_READY_TIMEOUT_MS,
      readyPollMs: options.readyPollMs ?? 50,
      stopGraceMs: options.stopGraceMs ?? 5_000,
      exitWatchMs: options.exitWatchMs ?? 500,
      stateFile: ctx.paths.proxyState,
      clock: ctx.clock,
      logger: ctx.logger,
      killTree: options.killTree,
      onChange: (s) => this.publish(s),
    });
  }

  isRunning(): boolean {
    return this.supervisor.status().state === 'running';
  }

  /** The supervisor's own view (state, lastError, lastExit) for the tray and notifications. */
  supervisorStatus(): SupervisorStatus {
    return this.supervisor.status();
  }

  async status(): Promise<ProxyStatus> {
    const s = this.supervisor.status();
    if (s.state !== 'running' || s.pid === undefined || s.port === undefined) return { running: false };
    return { running: true, port: s.port, pid: s.pid, sessionCount: await this.sessionCount(s.port), startedAt: s.startedAt ?? 0 };
  }

  async start(): Promise<ProxyStartResult> {
    try {
      const r = await this.supervisor.start();
      return { started: !r.alreadyRunning, alreadyRunning: r.alreadyRunning, port: r.port };
    } catch (err) {
      if (err instanceof StartCancelledError) throw new ProxyError('start-cancelled', CANCELLED_BY_STOP_MESSAGE);
      throw new ProxyError('start-failed', errorMessage(err));
    } finally {
      this.next = undefined;
    }
  }

  async stop(): Promise<ProxyStopResult> {
    const s = this.supervisor.status();
    const sessionCount = s.state === 'running' && s.port !== undefined ? await this.sessionCount(s.port) : 0;
    const r = await this.supervisor.stop();
    if (!r.stopped || r.pid === undefined) return { stopped: false, message: r.cancelledStart ? START_CANCELLED_MESSAGE : NOT_RUNNING_MESSAGE };
    return { stopped: true, pid: r.pid, sessionCount };
  }

  /**
   * Stop (when running or starting) then start, so a changed key, secret or config takes effect
   * (issue 28.7). Profiles that used the key the proxy ran with follow a new key, if no token
   * change has moved them already.
   */
  restart(): Promise<ProxyRestartResult> {
    const run = this.restarts.then(() => this.restartNow());
    this.restarts = run.catch(() => undefined);
    return run;
  }

  private async restartNow(): Promise<ProxyRestartResult> {
    const state = this.supervisor.status().state;
    const ranWith = state === 'running' ? this.view.apiKey : undefined;
    const stopped = state === 'stopped' || state === 'failed' ? null : await this.stop();
    const { port } = await this.start();
    const pid = this.supervisor.status().pid ?? 0;
    const key = this.view.apiKey;
    const updatedProfiles = ranWith && key && ranWith !== key ? await this.followKey(ranWith, key) : [];
    return { restarted: stopped?.stopped === true, port, pid, updatedProfiles };
  }

  private async followKey(oldKey: string, newKey: string): Promise<string[]> {
    try {
      return (await this.options.onRestartKeyChange?.(oldKey, newKey)) ?? [];
    } catch (err) {
      this.ctx.logger.warn(`profiles not updated after the proxy restart: ${errorMessage(err)}`);
      return [];
    }
  }

  /** At app start: take over a proxy a previous run left running (decisions §4). */
  async adopt(): Promise<boolean> {
    // An unreadable config still allows adoption on the default host, so a live proxy is not orphaned.
    await this.prepare().catch(() => undefined);
    this.next = undefined;
    return this.supervisor.adopt();
  }

  /** App quit: stop the proxy, or leave it running for the next app start to adopt. */
  async shutdown(keepRunning: boolean): Promise<void> {
    if (!keepRunning) await this.supervisor.stop().catch((err) => this.ctx.logger.error(`proxy stop failed: ${errorMessage(err)}`));
    await this.supervisor.dispose();
  }

  /** Base URL and API key of the running proxy, or null when it is not running. */
  endpoint(): { baseUrl: string; apiKey?: string } | null {
    const s = this.supervisor.status();
    if (s.state !== 'running' || s.port === undefined) return null;
    return { baseUrl: `http://${urlHost(this.view.host)}:${s.port}`, apiKey: this.view.apiKey };
  }

  /** Where the running built-in engine's management routes answer, or null (stopped, external binary, no secret). */
  managementEndpoint(): { baseUrl: string; secret: string } | null {
    const s = this.supervisor.status();
    const { engine, managementSecret, host } = this.view;
    if (s.state !== 'running' || s.port === undefined || engine !== 'builtin' || !managementSecret) return null;
    return { baseUrl: `http://${urlHost(host)}:${s.port}`, secret: managementSecret };
  }

  /** Reads proxy/config.yaml and the app's proxy section once per start attempt. */
  private prepare(): Promise<Parameters<typeof proxyLaunchSpec>> {
    this.next ??= (async () => {
      // config.yaml first: when it is broken, that is the cause to report (the tokens step only
      // logs it, and a missing proxy/config.yaml would otherwise be blamed instead).
      const { proxy: section, network } = (await this.ctx.appConfig.read()).config;
      await this.options.prepareConfig?.();
      const config = await loadProxyConfig(this.ctx.paths.proxyConfig);
      this.view = {
        host: config.server.host,
        apiKey: config.auth.api_key,
        managementSecret: config.auth.management_secret,
        engine: engineKind(section),
      };
      return [this.ctx.paths, config, section, network.origin_overrides] as Parameters<typeof proxyLaunchSpec>;
    })();
    const pending = this.next;
    pending.catch(() => (this.next = undefined));
    return pending;
  }

  /** Active sessions, as the built-in engine reports them; 0 when it cannot say (external binary). */
  private async sessionCount(port: number): Promise<number> {
    const { engine, managementSecret, host } = this.view;
    if (engine !== 'builtin' || !managementSecret) return 0;
    try {
      const { status, body } = await getLocalJson(`http://${urlHost(host)}:${port}${SESSIONS_ROUTE}`, { authorization: `Bearer ${managementSecret}` }, 1_000);
      const count = (body as { sessionCount?: unknown } | null)?.sessionCount;
      return status === 200 && Number.isInteger(count) ? (count as number) : 0;
    } catch {
      return 0;
    }
  }

  private publish(s: SupervisorStatus): void {
    this.ctx.events.emit('proxy-state', {
      state: s.state,
      running: s.state === 'running',
      ...(s.port !== undefined ? { port: s.port } : {}),
      ...(s.pid !== undefined ? { pid: s.pid } : {}),
      ...(s.lastError !== undefined ? { message: s.lastError } : {}),
    });
  }
}
