import type { LaunchSpec, ProcessSupervisor, SupervisorStatus } from '../../infra/process-supervisor.js';
import { errorMessage } from '../../infra/file-stat.js';
import type { BridgeSection } from '../app-config/schema.js';
import type { ServiceContext } from '../context.js';
import { isExpired, makeCredentials, type AuthMethod, type BridgeCredentials } from './credentials.js';
import { CredentialsStore } from './credentials-store.js';
import { createDaemonSupervisor } from './daemon-control.js';
import { writeClientProfile } from './client-profile.js';
import { readEditorValues, TOKEN_KEY } from './editor-db.js';
import { BridgeError } from './errors.js';
import { fetchDaemonCatalog, toModelList, type BridgeModelList } from './model-list.js';
import { readBridgeSettings, writeBridgeSettings, type BridgeSettingsPatch } from './settings.js';
import { describeStatus, type BridgeStatus } from './status.js';

export type { BridgeStatus } from './status.js';

export interface BridgeServiceOptions {
  /** The sqlite3 command (default `$SWITCHBOARD_SQLITE3`, else `sqlite3` on PATH). */
  sqlite3?: string;
  platform?: NodeJS.Platform;
  readyTimeoutMs?: number;
  readyPollMs?: number;
  stopGraceMs?: number;
  /** Replaces the real daemon's command (control tests). */
  launch?: (settings: BridgeSection) => Promise<LaunchSpec> | LaunchSpec;
}

/**
 * The legacy editor bridge: credentials, daemon control, models, settings. The API routes and the
 * `switchboard bridge` CLI both call this class, so they behave the same.
 */
export class BridgeService {
  readonly credentials: CredentialsStore;
  private readonly daemon: ProcessSupervisor;
  /** Set when this process launched the daemon; quitting stops only such a daemon. */
  private startedHere = false;
  private lastEvent = '';

  constructor(
    private readonly ctx: ServiceContext,
    private readonly options: BridgeServiceOptions = {},
  ) {
    const { paths } = ctx;
    this.credentials = new CredentialsStore({ dir: paths.bridgeDir, credentials: paths.bridgeCredentials, daemonToken: paths.bridgeToken });
    this.daemon = createDaemonSupervisor({
      files: { configDir: paths.configDir, pidFile: paths.bridgePid, recordFile: paths.bridgeRecord, logFile: paths.bridgeLog },
      settings: () => this.settings(),
      clock: ctx.clock,
      logger: ctx.logger,
      onChange: (s) => this.publish(s),
      readyTimeoutMs: options.readyTimeoutMs,
      readyPollMs: options.readyPollMs,
      stopGraceMs: options.stopGraceMs,
      launch: options.launch,
    });
  }

  settings(): Promise<BridgeSection> {
    return readBridgeSettings(this.ctx.appConfig);
  }

  async updateSettings(patch: BridgeSettingsPatch): Promise<BridgeSection> {
    const cursor = await writeBridgeSettings(this.ctx.appConfig, patch);
    this.ctx.events.emit('config-changed', { section: 'cursor' });
    return cursor;
  }

  async status(): Promise<BridgeStatus> {
    const [settings, creds, daemon] = await Promise.all([this.settings(), this.credentials.read(), this.daemonStatus()]);
    return describeStatus(settings, creds, daemon, this.ctx.clock.now());
  }

  /** Reads the token and machine id from the editor's store and saves them. */
  async autoDetect(): Promise<BridgeCredentials> {
    const values = await readEditorValues({ env: this.ctx.env, platform: this.options.platform, sqlite3: this.options.sqlite3 });
    if (!values.accessToken) throw new BridgeError('invalid-credentials', `no ${TOKEN_KEY} in ${values.dbPath}; sign in to the editor first`);
    if (!values.machineId) throw new BridgeError('invalid-credentials', `no machine id in ${values.dbPath}`);
    return this.save(values.accessToken, values.machineId, 'auto-detect');
  }

  importManual(accessToken: string, machineId: string): Promise<BridgeCredentials> {
    return this.save(accessToken, machineId, 'manual');
  }

  /** The running daemon's catalog (its 5-minute cache), else the built-in list. */
  async models(): Promise<BridgeModelList> {
    const settings = await this.settings();
    const daemon = await this.daemonStatus();
    const catalog =
      daemon.state === 'running' && daemon.port ? await fetchDaemonCatalog(daemon.port, await this.credentials.existingDaemonToken()) : null;
    return toModelList(catalog, settings, this.ctx.clock.now());
  }

  /** Starts the daemon after checking the section is enabled and the credentials are usable. */
  async startDaemon(): Promise<{ pid: number; port: number; alreadyRunning: boolean }> {
    const settings = await this.settings();
    if (!settings.enabled) throw new BridgeError('disabled');
    const creds = await this.credentials.read();
    if (!creds) throw new BridgeError('credentials-missing');
    if (isExpired(creds, this.ctx.clock.now())) throw new BridgeError('credentials-expired');
    const token = await this.credentials.daemonToken();
    await this.daemon.adopt();
    let result: { pid: number; port: number; alreadyRunning: boolean };
    try {
      result = await this.daemon.start();
    } catch (err) {
      throw new BridgeError('start-failed', errorMessage(err));
    }
    if (!result.alreadyRunning) this.startedHere = true;
    await writeClientProfile(this.ctx.paths.bridgeSettings, settings, result.port, token).catch((err: unknown) =>
      this.ctx.logger.warn(`bridge: could not write ${this.ctx.paths.bridgeSettings}: ${errorMessage(err)}`),
    );
    return result;
  }

  async stopDaemon(): Promise<{ stopped: boolean; pid?: number }> {
    await this.daemon.adopt();
    try {
      return await this.daemon.stop();
    } catch (err) {
      throw new BridgeError('stop-failed', errorMessage(err));
    }
  }

  /**
   * App start: take over a daemon left running, then honour `auto_start`. The start itself runs
   * in the background (up to 30 s of health polling must not hold up the API).
   */
  async startup(): Promise<'adopted' | 'auto-starting' | 'skipped'> {
    if (await this.daemon.adopt()) return 'adopted';
    const settings = await this.settings();
    if (!settings.enabled || !settings.auto_start) return 'skipped';
    const creds = await this.credentials.read();
    if (!creds || isExpired(creds, this.ctx.clock.now())) {
      this.ctx.logger.warn('bridge: auto_start skipped, credentials missing or expired');
      return 'skipped';
    }
    void this.startDaemon().catch((err) => this.ctx.logger.error(`bridge: auto start failed: ${errorMessage(err)}`));
    return 'auto-starting';
  }

  /**
   * App quit: stop the daemon this process started, unless the keep-running policy says to
   * leave it; a daemon started elsewhere (CLI, an earlier run) is only let go of.
   */
  async shutdown(keepRunning: boolean): Promise<void> {
    if (keepRunning || !this.startedHere) await this.daemon.dispose();
    else await this.daemon.stop().catch((err) => this.ctx.logger.error(`bridge: stop failed: ${errorMessage(err)}`));
  }

  /** Lets go of the daemon without stopping it (the CLI exits while the daemon keeps running). */
  release(): Promise<void> {
    return this.daemon.dispose();
  }

  private async daemonStatus(): Promise<SupervisorStatus> {
    const current = this.daemon.status();
    // A daemon the CLI (or an earlier app run) started shows up through its pid file.
    if (current.state === 'stopped' || current.state === 'failed') await this.daemon.adopt();
    return this.daemon.status();
  }

  private async save(accessToken: string, machineId: string, method: AuthMethod): Promise<BridgeCredentials> {
    const creds = makeCredentials(accessToken, machineId, method, this.ctx.clock.now());
    if (!creds) throw new BridgeError('invalid-credentials', 'the access token must be longer than 50 characters and the machine id 32 hex characters');
    await this.credentials.write(creds);
    return creds;
  }

  private publish(s: SupervisorStatus): void {
    const event = {
      state: s.state,
      running: s.state === 'running',
      ...(s.port !== undefined ? { port: s.port } : {}),
      ...(s.pid !== undefined ? { pid: s.pid } : {}),
      ...(s.lastError ? { message: s.lastError } : {}),
    };
    // The supervisor reports every field change; listeners (tray, SSE) only need real changes.
    const key = JSON.stringify(event);
    if (key === this.lastEvent) return;
    this.lastEvent = key;
    this.ctx.events.emit('bridge-state', event);
  }
}
