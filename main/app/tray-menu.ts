import type { AppStatus, FailingUpstream, TrafficStatus } from './status-source.js';
import { profileItems } from './tray-profiles.js';
import { accountItems } from './tray-accounts.js';

/**
 * The tray menu as plain data (decisions §7, style habit 8): built by pure functions from the
 * status the API serves, turned into an Electron menu by tray.ts, tested without Electron.
 */
export type ApiActionId = 'proxy-start' | 'proxy-stop' | 'proxy-restart' | 'bridge-start' | 'bridge-stop' | 'usage-refresh';
/** `open-accounts` / `open-providers`: the window at that page (issues 29, 30). */
export type TrayActionId = 'open-window' | 'open-accounts' | 'open-providers' | ApiActionId | 'quit';

/** A click that carries data (which profile, which preset), sent to the API by the tray controller. */
export type TrayCommand = { kind: 'set-default'; profile: string } | { kind: 'apply-preset'; profile: string; preset: string };

export type TrayMenuItem =
  | { type: 'separator' }
  | { type: 'normal'; label: string; enabled: boolean; action?: TrayActionId; command?: TrayCommand }
  | { type: 'radio'; label: string; checked: boolean; enabled: boolean; command: TrayCommand }
  | { type: 'submenu'; label: string; enabled: boolean; items: TrayMenuItem[] };

/** Last state an event reported for a child; the API status has no "failed" or "starting". */
export interface ChildOverlay {
  state: string;
  message?: string;
}

export interface TrayView {
  status: AppStatus;
  proxyEvent?: ChildOverlay;
  bridgeEvent?: ChildOverlay;
  /** Actions sent to the API and not answered yet. */
  pending: ReadonlySet<ApiActionId>;
  /** Commands (keyed by commandKey) sent and not answered yet. */
  pendingCommands?: ReadonlySet<string>;
}

export type ChildPhase = 'running' | 'stopped' | 'starting' | 'stopping' | 'failed' | 'unknown';

export type TrayIconState = 'running' | 'stopped' | 'error';

const SEPARATOR: TrayMenuItem = { type: 'separator' };

export function buildTrayMenu(view: TrayView): TrayMenuItem[] {
  const items: TrayMenuItem[] = [item('Open window', 'open-window'), SEPARATOR, ...proxyItems(view), ...trafficItems(view.status.traffic), ...failingItems(view.status.failingUpstreams)];
  if (view.status.bridge?.enabled) items.push(SEPARATOR, ...bridgeItems(view));
  // Switching (issue 18) sits after the children it may route through, before the usage lines.
  // "Add provider…" closes the profiles group: the way to a new profile sits beside the list.
  const profiles = profileItems(view.status.profiles, view.pendingCommands ?? new Set());
  items.push(SEPARATOR, ...profiles, ...accountItems(view.status.accounts), item('Add provider…', 'open-providers'));
  items.push(SEPARATOR, info(costLine(view.status.todayCost)), info(anomalyLine(view.status.anomalies)));
  const refreshing = view.pending.has('usage-refresh');
  items.push(item(refreshing ? 'Refreshing usage…' : 'Refresh usage', 'usage-refresh', !refreshing));
  items.push(SEPARATOR, item('Quit Switchboard', 'quit'));
  return items;
}

/** A child's phase: a running status wins over older events; events say what the status cannot. */
export function childPhase(running: boolean | null | undefined, event: ChildOverlay | undefined, starting: boolean, stopping: boolean): ChildPhase {
  if (stopping || (running && event?.state === 'stopping')) return 'stopping';
  if (running) return 'running';
  if (starting || event?.state === 'starting') return 'starting';
  if (running === null || running === undefined) return 'unknown';
  return event?.state === 'failed' ? 'failed' : 'stopped';
}

function proxyItems(view: TrayView): TrayMenuItem[] {
  const proxy = view.status.proxy;
  const phase = childPhase(proxy?.running ?? null, view.proxyEvent, view.pending.has('proxy-start'), view.pending.has('proxy-stop'));
  const lines: Record<ChildPhase, string> = {
    running: `Proxy running on port ${proxy?.port ?? '?'} · ${plural(proxy?.sessionCount ?? 0, 'session')}`,
    stopped: 'Proxy stopped',
    starting: 'Proxy starting…',
    stopping: 'Proxy stopping…',
    failed: `Proxy failed: ${shorten(view.proxyEvent?.message ?? 'see the window for details')}`,
    unknown: 'Proxy status unavailable',
  };
  // Restart (issue 28.7): offered while the proxy runs; during one, nothing else is.
  const restarting = view.pending.has('proxy-restart');
  if (restarting) return [info('Proxy restarting…'), toggle(phase, 'proxy', 'Proxy', true), item('Restarting proxy…', 'proxy-restart', false)];
  const items = [info(lines[phase]), toggle(phase, 'proxy', 'Proxy')];
  if (phase === 'running') items.push(item('Restart proxy', 'proxy-restart'));
  return items;
}

function bridgeItems(view: TrayView): TrayMenuItem[] {
  const bridge = view.status.bridge!;
  const phase = childPhase(bridge.daemonRunning, view.bridgeEvent, view.pending.has('bridge-start'), view.pending.has('bridge-stop'));
  const credentials = bridge.authenticated === false ? ' · credentials missing' : bridge.tokenExpired ? ' · credentials expired' : '';
  const lines: Record<ChildPhase, string> = {
    running: `Bridge running on port ${bridge.port ?? '?'}`,
    stopped: `Bridge stopped${credentials}`,
    starting: 'Bridge starting…',
    stopping: 'Bridge stopping…',
    failed: `Bridge failed: ${shorten(view.bridgeEvent?.message ?? 'see the window for details')}`,
    unknown: 'Bridge status unavailable',
  };
  return [info(lines[phase]), toggle(phase, 'bridge', 'Bridge')];
}

/** Start when not running, Stop when running; disabled while a change is under way (`busy`) or unknown. */
function toggle(phase: ChildPhase, prefix: 'proxy' | 'bridge', name: string, busy = false): TrayMenuItem {
  if (phase === 'running') return item(`Stop ${name.toLowerCase()}`, `${prefix}-stop`, !busy);
  if (phase === 'stopping') return item(`Stop ${name.toLowerCase()}`, `${prefix}-stop`, false);
  return item(`Start ${name.toLowerCase()}`, `${prefix}-start`, !busy && (phase === 'stopped' || phase === 'failed'));
}

export function trayTooltip(view: TrayView): string {
  const [proxyLine] = proxyItems(view);
  const label = proxyLine?.type === 'normal' ? proxyLine.label : '';
  const profile = view.status.profiles?.default ? `Profile: ${view.status.profiles.default}\n` : '';
  const traffic = trafficItems(view.status.traffic).map((i) => (i.type === 'normal' ? `\n${i.label}` : '')).join('');
  // Windows cuts tooltips at 127 characters.
  return `Switchboard\n${profile}${label}\n${costLine(view.status.todayCost)}${traffic}`.slice(0, 127);
}

/**
 * Requests per minute and error rate, then the last error (issue 19). Absent (`undefined`)
 * when the status was not read with traffic; "unavailable" when the stats could not be read.
 */
function trafficItems(traffic: TrafficStatus | null | undefined): TrayMenuItem[] {
  if (traffic === undefined) return [];
  if (traffic === null) return [info('Requests unavailable')];
  const items = [info(requestsLine(traffic))];
  const last = traffic.lastError;
  if (last) items.push(info(shorten(`Last error: ${last.status}${last.model ? ` ${last.model}` : ''} at ${last.at}${last.message ? ` · ${last.message}` : ''}`, 70)));
  return items;
}

/** One line per upstream whose requests keep failing (issue 30.4); nothing when none or not read. */
export function failingItems(failing: FailingUpstream[] | null | undefined): TrayMenuItem[] {
  if (!failing) return [];
  const lines = failing.slice(0, MAX_FAILING_LINES).map((u) => info(shorten(`Upstream ${u.name} keeps failing${u.lastError ? ` (${failureText(u.lastError)})` : ''}`, 70)));
  if (failing.length > MAX_FAILING_LINES) lines.push(info(`…and ${failing.length - MAX_FAILING_LINES} more failing upstreams`));
  return lines;
}

const MAX_FAILING_LINES = 3;

function failureText(e: { status: number; message: string | null }): string {
  const status = e.status === 0 ? 'no answer' : String(e.status);
  return e.message ? `${status}: ${e.message}` : status;
}

export function requestsLine(t: Pick<TrafficStatus, 'requestsPerMinute' | 'errorRate'>): string {
  if (t.errorRate === null) return 'Requests: none in the last hour';
  const rpm = t.requestsPerMinute === 0 ? '0' : t.requestsPerMinute < 10 ? t.requestsPerMinute.toFixed(1) : String(Math.round(t.requestsPerMinute));
  const pct = t.errorRate > 0 && t.errorRate < 0.01 ? '<1' : String(Math.round(t.errorRate * 100));
  return `Requests: ${rpm}/min · ${pct}% errors (1 h)`;
}

/** The icon shows the proxy state by shape (template icons on macOS carry no colour). */
export function trayIconState(view: TrayView): TrayIconState {
  const phase = childPhase(view.status.proxy?.running ?? null, view.proxyEvent, false, false);
  if (phase === 'failed') return 'error';
  return phase === 'running' || phase === 'stopping' ? 'running' : 'stopped';
}

export function costLine(cost: number | null): string {
  if (cost === null) return 'Today: cost unavailable';
  if (cost > 0 && cost < 0.01) return 'Today: under $0.01';
  return `Today: $${cost.toFixed(2)}`;
}

function anomalyLine(count: number | null): string {
  if (count === null) return 'Anomalies unavailable';
  // The count is of the last 7 days (status-source.ts): older ones are history, not alerts.
  return count === 0 ? 'No anomalies in 7 days' : `${plural(count, 'anomaly', 'anomalies')} in 7 days`;
}

function item(label: string, action: TrayActionId, enabled = true): TrayMenuItem {
  return { type: 'normal', label, enabled, action };
}

function info(label: string): TrayMenuItem {
  return { type: 'normal', label, enabled: false };
}

function plural(n: number, one: string, many = `${one}s`): string {
  return `${n} ${n === 1 ? one : many}`;
}

function shorten(text: string, max = 60): string {
  const line = text.split('\n')[0]!.trim();
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}
