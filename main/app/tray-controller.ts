import type { Logger } from '../infra/logger.js';
import type { AppEvents } from '../services/events.js';
import { describeFailure, type ApiClient } from './api-client.js';
import { createNoticeGate, errorRateCheck, noticeForAccountEvent, noticeForActionFailure, noticeForAnomaly, noticeForChildEvent, type ChildEvent, type DesktopNotice } from './notifications.js';
import type { AppStatus, StatusSource } from './status-source.js';
import {
  buildTrayMenu,
  trayIconState,
  trayTooltip,
  type ApiActionId,
  type ChildOverlay,
  type TrayCommand,
  type TrayIconState,
  type TrayMenuItem,
  type TrayView,
} from './tray-menu.js';
import { commandKey } from './tray-profiles.js';

/** The API call behind each tray action: the tray does what the window's buttons do. */
export const API_ACTIONS: Record<ApiActionId, string> = {
  'proxy-start': '/api/proxy/proxy-start',
  'proxy-stop': '/api/proxy/proxy-stop',
  'proxy-restart': '/api/proxy/proxy-restart',
  'bridge-start': '/api/bridge/daemon/start',
  'bridge-stop': '/api/bridge/daemon/stop',
  'usage-refresh': '/api/usage/refresh',
};

/** The API request behind a tray command: the same calls the dashboard's buttons make. */
export function commandRequest(command: TrayCommand): { method: 'put' | 'post'; path: string; body: unknown } {
  if (command.kind === 'set-default') return { method: 'put', path: '/api/profiles/default', body: { profile: command.profile } };
  const path = `/api/settings/${encodeURIComponent(command.profile)}/presets/${encodeURIComponent(command.preset)}/apply`;
  return { method: 'post', path, body: {} };
}

export interface TrayFrame {
  menu: TrayMenuItem[];
  tooltip: string;
  icon: TrayIconState;
}

export interface TrayControllerDeps {
  api: ApiClient;
  source: StatusSource;
  events: Pick<AppEvents, 'on'>;
  /** Called with every new frame; tray.ts turns it into an Electron menu and icon. */
  render(frame: TrayFrame): void;
  notify(notice: DesktopNotice): void;
  logger: Logger;
  now?: () => number;
  /** Today's cost moves without events (new transcripts); re-read now and then. */
  refreshEveryMs?: number;
}

const UNKNOWN: AppStatus = { proxy: null, bridge: null, todayCost: null, anomalies: null, desktop: null };

/**
 * Keeps the tray on the API's status: re-reads it on every app event and every action, renders a
 * new frame when anything changed, and turns events into notices. No electron import.
 */
export class TrayController {
  private status = UNKNOWN;
  private proxyEvent: ChildOverlay | undefined;
  private bridgeEvent: ChildOverlay | undefined;
  private readonly pending = new Set<ApiActionId>();
  private readonly pendingCommands = new Set<string>();
  private readonly unsubscribe: Array<() => void> = [];
  private readonly gate: (notice: DesktopNotice) => boolean;
  private refreshing: Promise<void> | undefined;
  private refreshAgain = false;
  private timer: NodeJS.Timeout | undefined;
  private lastFrame = '';
  /** Whether the error rate was above `desktop.error_rate_notice` at the last read. */
  private errorRateAbove = false;

  constructor(private readonly deps: TrayControllerDeps) {
    this.gate = createNoticeGate(deps.now ?? Date.now);
  }

  async start(): Promise<void> {
    const { events } = this.deps;
    this.unsubscribe.push(
      events.on('proxy-state', (e) => this.onChild('proxy', e)),
      events.on('bridge-state', (e) => this.onChild('bridge', e)),
      events.on('anomaly', (e) => {
        this.notify(noticeForAnomaly(e));
        void this.refresh();
      }),
      events.on('usage-refreshed', () => void this.refresh()),
      events.on('config-changed', () => void this.refresh()),
      events.on('profiles', () => void this.refresh()),
      events.on('account', (e) => {
        const notice = noticeForAccountEvent(e);
        if (notice) this.notify(notice);
        if (e.reason !== 'sign-in') void this.refresh();
      }),
    );
    // Never a blank tray: draw "unavailable" lines before the first answer arrives.
    this.render();
    this.timer = setInterval(() => void this.refresh(), this.deps.refreshEveryMs ?? 60_000);
    this.timer.unref();
    await this.refresh();
  }

  stop(): void {
    clearInterval(this.timer);
    this.unsubscribe.splice(0).forEach((off) => off());
  }

  view(): TrayView {
    return {
      status: this.status,
      proxyEvent: this.proxyEvent,
      bridgeEvent: this.bridgeEvent,
      pending: new Set(this.pending),
      pendingCommands: new Set(this.pendingCommands),
    };
  }

  /** Re-reads the status; calls during a read coalesce into one more read after it. */
  refresh(): Promise<void> {
    if (this.refreshing) {
      this.refreshAgain = true;
      return this.refreshing;
    }
    this.refreshing = (async () => {
      do {
        this.refreshAgain = false;
        this.status = await this.deps.source.read().catch(() => UNKNOWN);
        this.checkErrorRate();
        this.render();
      } while (this.refreshAgain);
    })().finally(() => {
      this.refreshing = undefined;
    });
    return this.refreshing;
  }

  async perform(action: ApiActionId): Promise<void> {
    if (this.pending.has(action)) return;
    this.pending.add(action);
    this.render();
    try {
      const answer = await this.deps.api.post(API_ACTIONS[action]);
      if (!answer.ok) {
        const reason = describeFailure(answer);
        this.deps.logger.warn(`tray action ${action} failed: ${reason}`);
        const notice = noticeForActionFailure(action, reason);
        if (notice) this.notify(notice);
      }
    } finally {
      this.pending.delete(action);
      await this.refresh();
    }
  }

  /** Make a profile the default, or apply a preset: one API call, a notice when it is refused. */
  async run(command: TrayCommand): Promise<void> {
    const key = commandKey(command);
    if (this.pendingCommands.has(key)) return;
    this.pendingCommands.add(key);
    this.render();
    try {
      const { method, path, body } = commandRequest(command);
      const answer = await this.deps.api[method](path, body);
      if (!answer.ok) {
        const reason = describeFailure(answer);
        this.deps.logger.warn(`tray ${command.kind} failed: ${reason}`);
        const title = command.kind === 'set-default' ? `Could not switch to ${command.profile}` : `Could not apply preset ${command.preset}`;
        this.notify({ kind: 'profile-switch-failed', title, body: reason });
      }
    } finally {
      this.pendingCommands.delete(key);
      await this.refresh();
    }
  }

  private onChild(child: 'proxy' | 'bridge', event: ChildEvent): void {
    const previous = child === 'proxy' ? this.proxyEvent : this.bridgeEvent;
    const notice = noticeForChildEvent(child, previous?.state, event);
    if (notice) this.notify(notice);
    const overlay = { state: event.state, message: event.message };
    if (child === 'proxy') this.proxyEvent = overlay;
    else this.bridgeEvent = overlay;
    this.render();
    void this.refresh();
  }

  private checkErrorRate(): void {
    // An unreadable config says nothing about the setting: keep the state until the next read.
    if (!this.status.desktop) return;
    const check = errorRateCheck(this.status.desktop?.errorRateNotice, this.status.traffic, this.errorRateAbove);
    this.errorRateAbove = check.above;
    if (check.notice) this.notify(check.notice);
  }

  private notify(notice: DesktopNotice): void {
    if (this.status.desktop?.notifications === false) return;
    if (this.gate(notice)) this.deps.notify(notice);
  }

  private render(): void {
    const view = this.view();
    const frame: TrayFrame = { menu: buildTrayMenu(view), tooltip: trayTooltip(view), icon: trayIconState(view) };
    const key = JSON.stringify(frame);
    if (key === this.lastFrame) return;
    this.lastFrame = key;
    this.deps.render(frame);
  }
}
