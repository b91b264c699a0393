import type { AppEvents } from '../events.js';
import type { Logger } from '../../infra/logger.js';

/** The providers whose traffic the built-in engine forwards to the managed binary (decisions §4.1). */
export const CLIPROXY_PROVIDERS: readonly string[] = ['agy', 'kiro', 'gemini'];

export interface CliproxyDemandDeps {
  events: AppEvents;
  logger: Logger;
  /** Whether the proxy engine runs now. */
  proxyRunning: () => boolean;
  /**
   * Whether that proxy is the built-in engine (the one that forwards to the managed binary); a
   * user's own binary (`proxy.binary_path`) serves its providers itself. Absent: built-in.
   */
  builtinEngine?: () => Promise<boolean>;
  /** Whether an agy, kiro or gemini account is not paused. */
  accountNeedsBinary: () => Promise<boolean>;
  isInstalled: () => Promise<boolean>;
  /** Subscribes to successful installs; returns the unsubscribe. */
  onInstalled: (listener: () => void) => () => void;
  ensureRunning: () => Promise<unknown>;
}

/**
 * The lazy start (decisions §4.1: "It starts when the first account needs it and is not started
 * otherwise"). When the proxy comes up, an agy/kiro/gemini account is added or resumed, or the
 * binary is installed, it is started if the proxy runs, it is installed and such an account is active. Nothing else
 * starts it. Failures are logged: the engine's 503 tells the client what to do.
 */
export class CliproxyDemand {
  private offs: Array<() => void> = [];
  private checking: Promise<void> = Promise.resolve();

  constructor(private readonly deps: CliproxyDemandDeps) {}

  start(): void {
    if (this.offs.length > 0) return;
    this.offs.push(
      this.deps.events.on('proxy-state', (s) => {
        if (s.running) void this.check();
      }),
      this.deps.events.on('account', (a) => {
        if (CLIPROXY_PROVIDERS.includes(a.provider) && (a.reason === 'signed-in' || a.reason === 'resumed')) void this.check();
      }),
      // Installed while the proxy runs and an account waits: it need not wait for a proxy restart.
      this.deps.onInstalled(() => void this.check()),
    );
  }

  stop(): void {
    for (const off of this.offs.splice(0)) off();
  }

  /** One check at a time: a burst of events starts the binary once. Resolves when this check is done. */
  check(): Promise<void> {
    this.checking = this.checking.then(() => this.startIfNeeded());
    return this.checking;
  }

  /** Resolves when the checks asked for so far are done (the app waits for it before stopping the binary). */
  settled(): Promise<void> {
    return this.checking;
  }

  private async startIfNeeded(): Promise<void> {
    try {
      if (!this.deps.proxyRunning()) return;
      if (this.deps.builtinEngine && !(await this.deps.builtinEngine())) return;
      if (!(await this.deps.accountNeedsBinary())) return;
      if (!(await this.deps.isInstalled())) return;
      await this.deps.ensureRunning();
    } catch (err) {
      this.deps.logger.warn(`CLIProxyAPI was not started for the accounts that need it: ${err instanceof Error ? err.message : String(err)}`);
    }
  }
}
