import { describe, expect, it } from 'vitest';
import type { AppStatus } from '../../../main/app/status-source.js';
import {
  buildTrayMenu,
  childPhase,
  costLine,
  trayIconState,
  trayTooltip,
  type ApiActionId,
  type TrayMenuItem,
  type TrayView,
} from '../../../main/app/tray-menu.js';

const base: AppStatus = {
  proxy: { running: false },
  bridge: { enabled: false, daemonRunning: false },
  todayCost: 1.234,
  anomalies: 0,
  desktop: { notifications: true, launchAtLogin: false },
};

function view(status: Partial<AppStatus> = {}, extra: Partial<TrayView> = {}): TrayView {
  return { status: { ...base, ...status }, pending: new Set<ApiActionId>(), ...extra };
}

/** Compact picture of a menu: `---` for separators, `label [action]`, `(disabled)` marks. */
function picture(items: TrayMenuItem[]): string[] {
  return items.map((i) => (i.type === 'separator' ? '---' : `${i.label}${i.action ? ` [${i.action}]` : ''}${i.enabled ? '' : ' (disabled)'}`));
}

describe('buildTrayMenu', () => {
  it('proxy running, bridge disabled: the decisions §7 order', () => {
    const menu = buildTrayMenu(view({ proxy: { running: true, port: 8317, sessionCount: 2 } }));
    expect(picture(menu)).toEqual([
      'Open window [open-window]',
      '---',
      'Proxy running on port 8317 · 2 sessions (disabled)',
      'Stop proxy [proxy-stop]',
      '---',
      'Today: $1.23 (disabled)',
      'No anomalies (disabled)',
      'Refresh usage [usage-refresh]',
      '---',
      'Quit Switchboard [quit]',
    ]);
  });

  it('proxy stopped offers Start proxy', () => {
    const menu = picture(buildTrayMenu(view()));
    expect(menu.slice(2, 4)).toEqual(['Proxy stopped (disabled)', 'Start proxy [proxy-start]']);
  });

  it('one session is singular', () => {
    const menu = picture(buildTrayMenu(view({ proxy: { running: true, port: 9000, sessionCount: 1 } })));
    expect(menu[2]).toBe('Proxy running on port 9000 · 1 session (disabled)');
  });

  it('proxy failed shows the reason and still offers Start proxy', () => {
    const menu = picture(buildTrayMenu(view({}, { proxyEvent: { state: 'failed', message: 'port 8317 is already in use by another process' } })));
    expect(menu.slice(2, 4)).toEqual(['Proxy failed: port 8317 is already in use by another process (disabled)', 'Start proxy [proxy-start]']);
  });

  it('a long failure message is cut to one short line', () => {
    const menu = buildTrayMenu(view({}, { proxyEvent: { state: 'failed', message: `${'x'.repeat(100)}\nsecond line` } }));
    const line = menu[2] as { label: string };
    expect(line.label).toBe(`Proxy failed: ${'x'.repeat(59)}…`);
  });

  it('a running status wins over an older failure event', () => {
    const menu = picture(buildTrayMenu(view({ proxy: { running: true, port: 8317, sessionCount: 0 } }, { proxyEvent: { state: 'failed' } })));
    expect(menu.slice(2, 4)).toEqual(['Proxy running on port 8317 · 0 sessions (disabled)', 'Stop proxy [proxy-stop]']);
  });

  it('while a start is pending the toggle is disabled', () => {
    const menu = picture(buildTrayMenu(view({}, { pending: new Set<ApiActionId>(['proxy-start']) })));
    expect(menu.slice(2, 4)).toEqual(['Proxy starting… (disabled)', 'Start proxy [proxy-start] (disabled)']);
  });

  it('while a stop is under way the toggle is disabled', () => {
    const menu = picture(buildTrayMenu(view({ proxy: { running: true, port: 1, sessionCount: 0 } }, { proxyEvent: { state: 'stopping' } })));
    expect(menu.slice(2, 4)).toEqual(['Proxy stopping… (disabled)', 'Stop proxy [proxy-stop] (disabled)']);
  });

  it('an unreachable API gives "unavailable" lines, never a blank menu', () => {
    const menu = picture(buildTrayMenu(view({ proxy: null, bridge: null, todayCost: null, anomalies: null, desktop: null })));
    expect(menu).toEqual([
      'Open window [open-window]',
      '---',
      'Proxy status unavailable (disabled)',
      'Start proxy [proxy-start] (disabled)',
      '---',
      'Today: cost unavailable (disabled)',
      'Anomalies unavailable (disabled)',
      'Refresh usage [usage-refresh]',
      '---',
      'Quit Switchboard [quit]',
    ]);
  });

  it('bridge enabled and running adds its line and Stop bridge after the proxy', () => {
    const menu = picture(buildTrayMenu(view({ bridge: { enabled: true, daemonRunning: true, port: 20129, authenticated: true } })));
    expect(menu.slice(0, 8)).toEqual([
      'Open window [open-window]',
      '---',
      'Proxy stopped (disabled)',
      'Start proxy [proxy-start]',
      '---',
      'Bridge running on port 20129 (disabled)',
      'Stop bridge [bridge-stop]',
      '---',
    ]);
  });

  it('bridge enabled and stopped says why a start would fail', () => {
    const missing = picture(buildTrayMenu(view({ bridge: { enabled: true, daemonRunning: false, authenticated: false } })));
    expect(missing.slice(5, 7)).toEqual(['Bridge stopped · credentials missing (disabled)', 'Start bridge [bridge-start]']);
    const expired = picture(buildTrayMenu(view({ bridge: { enabled: true, daemonRunning: false, authenticated: true, tokenExpired: true } })));
    expect(expired[5]).toBe('Bridge stopped · credentials expired (disabled)');
  });

  it('bridge failed to start shows the event message', () => {
    const menu = picture(buildTrayMenu(view({ bridge: { enabled: true, daemonRunning: false } }, { bridgeEvent: { state: 'failed', message: 'health check timed out' } })));
    expect(menu.slice(5, 7)).toEqual(['Bridge failed: health check timed out (disabled)', 'Start bridge [bridge-start]']);
  });

  it('bridge enabled in config but status unreadable: line says so, toggle disabled', () => {
    const menu = picture(buildTrayMenu(view({ bridge: { enabled: true, daemonRunning: null } })));
    expect(menu.slice(5, 7)).toEqual(['Bridge status unavailable (disabled)', 'Start bridge [bridge-start] (disabled)']);
  });

  it('bridge disabled: no bridge items at all', () => {
    const menu = buildTrayMenu(view({ bridge: { enabled: false, daemonRunning: true, port: 20129 } }));
    expect(menu.some((i) => i.type === 'normal' && /bridge/i.test(i.label))).toBe(false);
  });

  it('anomalies are counted and refresh shows progress', () => {
    const menu = picture(buildTrayMenu(view({ anomalies: 3 }, { pending: new Set<ApiActionId>(['usage-refresh']) })));
    expect(menu).toContain('3 anomalies (disabled)');
    expect(menu).toContain('Refreshing usage… [usage-refresh] (disabled)');
    expect(picture(buildTrayMenu(view({ anomalies: 1 })))).toContain('1 anomaly (disabled)');
  });

  it('always starts with Open window and ends with Quit, in every state', () => {
    const states: TrayView[] = [
      view(),
      view({ proxy: null }),
      view({ proxy: { running: true, port: 1 } }),
      view({ bridge: { enabled: true, daemonRunning: true } }),
      view({}, { proxyEvent: { state: 'failed' } }),
    ];
    for (const v of states) {
      const menu = buildTrayMenu(v);
      expect(menu[0]).toEqual({ type: 'normal', label: 'Open window', enabled: true, action: 'open-window' });
      expect(menu.at(-1)).toEqual({ type: 'normal', label: 'Quit Switchboard', enabled: true, action: 'quit' });
    }
  });
});

describe('childPhase', () => {
  it.each([
    [true, undefined, false, false, 'running'],
    [false, undefined, false, false, 'stopped'],
    [null, undefined, false, false, 'unknown'],
    [false, { state: 'failed' }, false, false, 'failed'],
    [false, { state: 'starting' }, false, false, 'starting'],
    [false, undefined, true, false, 'starting'],
    [true, undefined, false, true, 'stopping'],
    [true, { state: 'failed' }, false, false, 'running'],
    [false, { state: 'running' }, false, false, 'stopped'],
  ] as const)('running=%s event=%o starting=%s stopping=%s → %s', (running, event, starting, stopping, phase) => {
    expect(childPhase(running, event, starting, stopping)).toBe(phase);
  });
});

describe('tray tooltip, icon and cost line', () => {
  it('tooltip carries the proxy line and today’s cost', () => {
    expect(trayTooltip(view({ proxy: { running: true, port: 8317, sessionCount: 3 } }))).toBe(
      'Switchboard\nProxy running on port 8317 · 3 sessions\nToday: $1.23',
    );
  });

  it('tooltip stays within the 127 characters Windows shows', () => {
    const long = view({}, { proxyEvent: { state: 'failed', message: 'y'.repeat(500) } });
    expect(trayTooltip(long).length).toBeLessThanOrEqual(127);
  });

  it('icon state follows the proxy', () => {
    expect(trayIconState(view({ proxy: { running: true } }))).toBe('running');
    expect(trayIconState(view())).toBe('stopped');
    expect(trayIconState(view({ proxy: null }))).toBe('stopped');
    expect(trayIconState(view({}, { proxyEvent: { state: 'failed' } }))).toBe('error');
  });

  it.each([
    [null, 'Today: cost unavailable'],
    [0, 'Today: $0.00'],
    [0.004, 'Today: under $0.01'],
    [0.01, 'Today: $0.01'],
    [12.345, 'Today: $12.35'],
  ])('cost %s → %s', (cost, line) => {
    expect(costLine(cost)).toBe(line);
  });
});
