import { describe, expect, it } from 'vitest';
import { ERROR_RATE_MIN_REQUESTS, errorRateCheck } from '../../../main/app/notifications.js';
import type { AppStatus, TrafficStatus } from '../../../main/app/status-source.js';
import { buildTrayMenu, requestsLine, trayTooltip, type ApiActionId, type TrayMenuItem, type TrayView } from '../../../main/app/tray-menu.js';

/** Issue 19 in the tray: requests per minute and the last error as menu data, and the error-rate notice rule. */
const base: AppStatus = {
  proxy: { running: true, port: 8317, sessionCount: 0 },
  bridge: { enabled: false, daemonRunning: false },
  todayCost: 1,
  anomalies: 0,
  desktop: { notifications: true, launchAtLogin: false, errorRateNotice: 0.2 },
};

const traffic = (t: Partial<TrafficStatus> = {}): TrafficStatus => ({
  requestsPerMinute: 4.2,
  errorRate: 0.05,
  hourRequests: 60,
  hourErrors: 3,
  lastError: { status: 502, model: 'gpt-4o', message: 'upstream connection refused', at: '14:03' },
  ...t,
});

function view(status: Partial<AppStatus>): TrayView {
  return { status: { ...base, ...status }, pending: new Set<ApiActionId>() };
}

const picture = (items: TrayMenuItem[]) =>
  items.map((i) => (i.type === 'separator' ? '---' : `${i.label}${i.type === 'normal' && i.action ? ` [${i.action}]` : ''}${i.enabled ? '' : ' (disabled)'}`));

describe('tray menu: traffic lines', () => {
  it('requests per minute, error rate and the last error follow the proxy items', () => {
    expect(picture(buildTrayMenu(view({ traffic: traffic() }))).slice(2, 7)).toEqual([
      'Proxy running on port 8317 · 0 sessions (disabled)',
      'Stop proxy [proxy-stop]',
      'Restart proxy [proxy-restart]',
      'Requests: 4.2/min · 5% errors (1 h) (disabled)',
      'Last error: 502 gpt-4o at 14:03 · upstream connection refused (disabled)',
    ]);
  });

  it('no last error: only the requests line', () => {
    const menu = picture(buildTrayMenu(view({ traffic: traffic({ lastError: null }) })));
    expect(menu[5]).toBe('Requests: 4.2/min · 5% errors (1 h) (disabled)');
    expect(menu[6]).toBe('---');
  });

  it('an idle hour says so instead of 0 % errors', () => {
    expect(picture(buildTrayMenu(view({ traffic: traffic({ requestsPerMinute: 0, errorRate: null, lastError: null }) })))[5]).toBe(
      'Requests: none in the last hour (disabled)',
    );
  });

  it('unreadable stats say "unavailable"; a status read without traffic adds nothing', () => {
    expect(picture(buildTrayMenu(view({ traffic: null })))[5]).toBe('Requests unavailable (disabled)');
    expect(picture(buildTrayMenu(view({})))[5]).toBe('---');
  });

  it('a long error text is cut to one short line', () => {
    const long = traffic({ lastError: { status: 500, model: 'claude-sonnet-4-5', message: `boom ${'x'.repeat(200)}\nsecond line`, at: '09:00' } });
    const line = picture(buildTrayMenu(view({ traffic: long })))[6]!;
    expect(line.replace(' (disabled)', '').length).toBeLessThanOrEqual(70);
    expect(line).toMatch(/^Last error: 500 claude-sonnet-4-5 at 09:00 · boom x+…/);
  });

  it.each([
    [{ requestsPerMinute: 0, errorRate: 0 }, 'Requests: 0/min · 0% errors (1 h)'],
    [{ requestsPerMinute: 0.25, errorRate: 0.004 }, 'Requests: 0.3/min · <1% errors (1 h)'],
    [{ requestsPerMinute: 123.4, errorRate: 1 }, 'Requests: 123/min · 100% errors (1 h)'],
  ])('requestsLine(%o) = %s', (t, line) => {
    expect(requestsLine(t)).toBe(line);
  });

  it('the tooltip adds the requests line and the last error, within 127 characters', () => {
    const tip = trayTooltip(view({ traffic: traffic() }));
    expect(tip.split('\n').slice(0, 4)).toEqual(['Switchboard', 'Proxy running on port 8317 · 0 sessions', 'Today: $1.00', 'Requests: 4.2/min · 5% errors (1 h)']);
    expect(tip.length).toBeLessThanOrEqual(127);
    expect(trayTooltip(view({}))).toBe('Switchboard\nProxy running on port 8317 · 0 sessions\nToday: $1.00');
  });
});

describe('errorRateCheck', () => {
  it('off by default: no threshold never notifies', () => {
    expect(errorRateCheck(null, traffic({ errorRate: 1 }), false)).toEqual({ above: false });
    expect(errorRateCheck(undefined, traffic({ errorRate: 1 }), false)).toEqual({ above: false });
    expect(errorRateCheck(0, traffic({ errorRate: 1 }), false)).toEqual({ above: false });
  });

  it('crossing the threshold notifies once, with counts and the last error', () => {
    const check = errorRateCheck(0.2, traffic({ errorRate: 0.25, hourRequests: 40, hourErrors: 10 }), false);
    expect(check).toEqual({
      above: true,
      notice: {
        kind: 'error-rate',
        title: 'Proxy error rate 25%',
        body: '10 of 40 requests failed in the last hour (notice at 20%). Last: 502 gpt-4o at 14:03 — upstream connection refused',
      },
    });
  });

  it('exactly at the threshold counts as crossed', () => {
    expect(errorRateCheck(0.2, traffic({ errorRate: 0.2 }), false).notice?.kind).toBe('error-rate');
  });

  it('not repeatedly: while it stays above, and while it hovers just below, nothing more', () => {
    let above = errorRateCheck(0.2, traffic({ errorRate: 0.3 }), false).above;
    const notices: unknown[] = [];
    for (const rate of [0.35, 0.22, 0.19, 0.17, 0.21, 0.4]) {
      const check = errorRateCheck(0.2, traffic({ errorRate: rate }), above);
      above = check.above;
      if (check.notice) notices.push(check.notice);
    }
    expect(notices).toEqual([]);
    expect(above).toBe(true);
  });

  it('after falling clearly below (under 80 % of the threshold) the next crossing notifies again', () => {
    const fallen = errorRateCheck(0.2, traffic({ errorRate: 0.15 }), true);
    expect(fallen).toEqual({ above: false });
    expect(errorRateCheck(0.2, traffic({ errorRate: 0.3 }), fallen.above).notice?.title).toBe('Proxy error rate 30%');
  });

  it(`fewer than ${ERROR_RATE_MIN_REQUESTS} requests in the hour are too few to judge`, () => {
    expect(errorRateCheck(0.2, traffic({ errorRate: 1, hourRequests: ERROR_RATE_MIN_REQUESTS - 1, hourErrors: 4 }), false)).toEqual({ above: false });
    expect(errorRateCheck(0.2, traffic({ errorRate: 1, hourRequests: ERROR_RATE_MIN_REQUESTS, hourErrors: 5 }), false).notice).toBeDefined();
  });

  it('an idle hour re-arms; unreadable stats keep the state (no notice on a flapping read)', () => {
    expect(errorRateCheck(0.2, traffic({ errorRate: null, hourRequests: 0, hourErrors: 0 }), true)).toEqual({ above: false });
    expect(errorRateCheck(0.2, null, true)).toEqual({ above: true });
    expect(errorRateCheck(0.2, undefined, false)).toEqual({ above: false });
  });

  it('a notice without a last error leaves that part out', () => {
    const check = errorRateCheck(0.5, traffic({ errorRate: 0.5, hourRequests: 10, hourErrors: 5, lastError: null }), false);
    expect(check.notice?.body).toBe('5 of 10 requests failed in the last hour (notice at 50%).');
  });
});
