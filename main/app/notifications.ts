import type { AppEventMap } from '../services/events.js';
import type { TrafficStatus } from './status-source.js';
import type { ApiActionId } from './tray-menu.js';

/**
 * Desktop notices (decisions §7): proxy exited unexpectedly, proxy failed to start, bridge failed
 * to start, new anomaly. Decided by pure functions from events, so the rules are tested here and
 * the Electron side only shows what they return.
 */
export type NoticeKind = 'proxy-exited' | 'proxy-start-failed' | 'bridge-start-failed' | 'anomaly' | 'error-rate' | 'profile-switch-failed' | 'account-error';

export interface DesktopNotice {
  kind: NoticeKind;
  title: string;
  body: string;
}

export type ChildEvent = AppEventMap['proxy-state'];

/**
 * `previous` is the state of the last event seen for the same child. The supervisor re-sends its
 * state on every detail change, so only a change of state counts. A requested stop passes through
 * "stopping", so running → failed/stopped without it is an exit nobody asked for; failed after
 * anything but running or stopping is a start that did not make it.
 */
export function noticeForChildEvent(child: 'proxy' | 'bridge', previous: string | undefined, event: ChildEvent): DesktopNotice | undefined {
  if (previous === event.state) return undefined;
  const detail = event.message?.trim() || 'No details were reported.';
  const unexpectedExit = previous === 'running' && (event.state === 'failed' || event.state === 'stopped');
  const startFailed = event.state === 'failed' && previous !== 'running' && previous !== 'stopping';
  if (child === 'proxy') {
    if (unexpectedExit) return { kind: 'proxy-exited', title: 'Proxy exited unexpectedly', body: detail };
    if (startFailed) return { kind: 'proxy-start-failed', title: 'Proxy failed to start', body: detail };
    return undefined;
  }
  // Only the bridge's start failure is a notice (decisions §7); its exit shows in the tray line.
  if (startFailed) return { kind: 'bridge-start-failed', title: 'Bridge failed to start', body: detail };
  return undefined;
}

export function noticeForAnomaly(anomaly: AppEventMap['anomaly']): DesktopNotice {
  return { kind: 'anomaly', title: `Usage anomaly on ${anomaly.date}`, body: anomaly.message };
}

/** decisions §4.1: a refresh that failed is a desktop notice with the provider's reason, never silent. */
export function noticeForAccountEvent(event: AppEventMap['account']): DesktopNotice | undefined {
  if (event.reason !== 'error' || !event.error) return undefined;
  const who = (event.account as { label?: unknown } | undefined)?.label;
  return { kind: 'account-error', title: `${event.provider} account${typeof who === 'string' ? ` ${who}` : ''} needs attention`, body: event.error.slice(0, 250) };
}

/** A start requested from the tray that the API refused (e.g. port in use, credentials missing). */
export function noticeForActionFailure(action: ApiActionId, reason: string): DesktopNotice | undefined {
  if (action === 'proxy-start') return { kind: 'proxy-start-failed', title: 'Proxy failed to start', body: reason };
  if (action === 'proxy-restart') return { kind: 'proxy-start-failed', title: 'Proxy failed to restart', body: reason };
  if (action === 'bridge-start') return { kind: 'bridge-start-failed', title: 'Bridge failed to start', body: reason };
  return undefined;
}

/** Below this many requests in the hour a rate says little (one failure of two is 50 %). */
export const ERROR_RATE_MIN_REQUESTS = 5;
/** Once noticed, the rate must fall below this share of the threshold before it can notify again. */
export const ERROR_RATE_REARM = 0.8;

/**
 * `desktop.error_rate_notice` (issue 19): one notice when the last hour's error rate crosses the
 * threshold, then none until it has fallen clearly below it again (so a rate hovering around the
 * threshold does not notify on every read). `above` is the state to pass to the next call. An
 * unreadable status changes nothing; a threshold of null (the default) is off.
 */
export function errorRateCheck(
  threshold: number | null | undefined,
  traffic: TrafficStatus | null | undefined,
  wasAbove: boolean,
): { above: boolean; notice?: DesktopNotice } {
  if (threshold == null || !(threshold > 0)) return { above: false };
  if (!traffic) return { above: wasAbove };
  const rate = traffic.errorRate;
  if (rate === null || traffic.hourRequests < ERROR_RATE_MIN_REQUESTS) return { above: false };
  if (rate < threshold) return { above: wasAbove && rate >= threshold * ERROR_RATE_REARM };
  if (wasAbove) return { above: true };
  const last = traffic.lastError;
  const lastText = last ? ` Last: ${last.status}${last.model ? ` ${last.model}` : ''} at ${last.at}${last.message ? ` — ${last.message}` : ''}` : '';
  return {
    above: true,
    notice: {
      kind: 'error-rate',
      title: `Proxy error rate ${Math.round(rate * 100)}%`,
      body: `${traffic.hourErrors} of ${traffic.hourRequests} requests failed in the last hour (notice at ${Math.round(threshold * 100)}%).${lastText}`.slice(0, 250),
    },
  };
}

/**
 * The same failure often arrives twice, worded differently (the start answer and the state
 * event): show one notice per failure kind within `windowMs`. Distinct anomalies all show.
 */
export function createNoticeGate(now: () => number, windowMs = 10_000): (notice: DesktopNotice) => boolean {
  const shown = new Map<string, number>();
  return (notice) => {
    const key = notice.kind === 'anomaly' ? `${notice.kind}\n${notice.title}\n${notice.body}` : notice.kind;
    const last = shown.get(key);
    if (last !== undefined && now() - last < windowMs) return false;
    shown.set(key, now());
    return true;
  };
}
