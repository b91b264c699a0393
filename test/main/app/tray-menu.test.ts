import { describe, expect, it } from 'vitest';
import type { AppStatus } from '../../../main/app/status-source.js';
import type { TrayProfiles } from '../../../main/app/tray-profiles.js';
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
  return items.map((i) => (i.type === 'separator' ? '---' : `${i.label}${i.type === 'normal' && i.action ? ` [${i.action}]` : ''}${i.enabled ? '' : ' (disabled)'}`));
}

describe('buildTrayMenu', () => {
  it('proxy running, bridge disabled: the decisions §7 order', () => {
    const menu = buildTrayMenu(view({ proxy: { running: true, port: 8317, sessionCount: 2 } }));
    expect(picture(menu)).toEqual([
      'Open window [open-window]',
      '---',
      'Proxy running on port 8317 · 2 sessions (disabled)',
      'Stop proxy [proxy-stop]',
      'Restart proxy [proxy-restart]',
      '---',
      'Add provider… [open-providers]',
      '---',
      'Today: $1.23 (disabled)',
      'No anomalies in 7 days (disabled)',
      'Refresh usage [usage-refresh]',
      '---',
      'Quit Switchboard [quit]',
    ]);
  });

  it('says which upstreams keep failing, after the request lines (issue 30.4)', () => {
    const failing = [
      { name: 'rot', lastError: { status: 429, message: 'rate limited' } },
      { name: 'gone', lastError: { status: 0, message: null } },
      { name: 'c', lastError: null },
      { name: 'd', lastError: null },
    ];
    const menu = picture(buildTrayMenu(view({ proxy: { running: true, port: 8317, sessionCount: 0 }, failingUpstreams: failing })));
    expect(menu.slice(5, 11)).toEqual([
      'Upstream rot keeps failing (429: rate limited) (disabled)',
      'Upstream gone keeps failing (no answer) (disabled)',
      'Upstream c keeps failing (disabled)',
      '…and 1 more failing upstreams (disabled)',
      '---',
      'Add provider… [open-providers]',
    ]);
    expect(picture(buildTrayMenu(view({ failingUpstreams: [] })))).toEqual(picture(buildTrayMenu(view())));
    expect(picture(buildTrayMenu(view({ failingUpstreams: null })))).toEqual(picture(buildTrayMenu(view())));
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

  it('Restart proxy is offered only while the proxy runs (issue 28.7)', () => {
    const running = picture(buildTrayMenu(view({ proxy: { running: true, port: 8317, sessionCount: 0 } })));
    expect(running.slice(2, 5)).toEqual(['Proxy running on port 8317 · 0 sessions (disabled)', 'Stop proxy [proxy-stop]', 'Restart proxy [proxy-restart]']);
    for (const v of [view(), view({}, { proxyEvent: { state: 'failed' } }), view({ proxy: null }), view({}, { pending: new Set<ApiActionId>(['proxy-start']) })]) {
      expect(picture(buildTrayMenu(v)).filter((l) => l.includes('proxy-restart'))).toEqual([]);
    }
  });

  it('while a restart is pending: "restarting", and neither stop, start nor another restart can be clicked', () => {
    const pending = new Set<ApiActionId>(['proxy-restart']);
    // Mid-restart the status may say stopped, starting or running: the line stays one.
    for (const proxy of [{ running: true, port: 8317, sessionCount: 0 }, { running: false }] as const) {
      const menu = picture(buildTrayMenu(view({ proxy }, { pending })));
      expect(menu[2]).toBe('Proxy restarting… (disabled)');
      expect(menu[3]).toMatch(/^(Stop|Start) proxy \[proxy-(stop|start)\] \(disabled\)$/);
      expect(menu[4]).toBe('Restarting proxy… [proxy-restart] (disabled)');
    }
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
      'Add provider… [open-providers]',
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
    expect(menu).toContain('3 anomalies in 7 days (disabled)');
    expect(menu).toContain('Refreshing usage… [usage-refresh] (disabled)');
    expect(picture(buildTrayMenu(view({ anomalies: 1 })))).toContain('1 anomaly in 7 days (disabled)');
  });

  it('offers "Add provider…" (issue 30) as an action that opens the Providers page, with or without profiles', () => {
    const withProfiles = buildTrayMenu(view({ profiles: { list: [{ name: 'glm', model: null, usesProxy: false }], default: 'glm', presets: [] } }));
    for (const menu of [buildTrayMenu(view()), withProfiles]) {
      const add = menu.find((i) => i.type === 'normal' && i.label === 'Add provider…');
      expect(add).toEqual({ type: 'normal', label: 'Add provider…', enabled: true, action: 'open-providers' });
    }
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

describe('Profiles and Presets submenus (issue 18)', () => {
  const profiles = {
    list: [
      { name: 'glm', model: 'glm-4.6', usesProxy: false },
      { name: 'proxy', model: null, usesProxy: true },
    ],
    default: 'glm',
    presets: ['fast', 'deep'],
  };

  /** The items between the proxy lines and the cost line. */
  // The profiles group ends with "Add provider…" (issue 30), which these tests leave out.
  const section = (menu: TrayMenuItem[]) => menu.slice(5, menu.findIndex((i) => i.type === 'normal' && i.action === 'open-providers'));

  it('a Profiles submenu of radio items (checked = default) and the Presets submenu of the default under it, after the proxy', () => {
    const menu = buildTrayMenu(view({ profiles }));
    expect(picture(menu).slice(0, 5)).toEqual(['Open window [open-window]', '---', 'Proxy stopped (disabled)', 'Start proxy [proxy-start]', '---']);
    expect(section(menu)).toEqual([
      {
        type: 'submenu',
        label: 'Profile: glm',
        enabled: true,
        items: [
          { type: 'radio', label: 'glm · glm-4.6', checked: true, enabled: true, command: { kind: 'set-default', profile: 'glm' } },
          { type: 'radio', label: 'proxy · via proxy', checked: false, enabled: true, command: { kind: 'set-default', profile: 'proxy' } },
        ],
      },
      {
        type: 'submenu',
        label: 'Presets of glm',
        enabled: true,
        items: [
          { type: 'normal', label: 'fast', enabled: true, command: { kind: 'apply-preset', profile: 'glm', preset: 'fast' } },
          { type: 'normal', label: 'deep', enabled: true, command: { kind: 'apply-preset', profile: 'glm', preset: 'deep' } },
        ],
      },
    ]);
    expect(picture(menu).slice(-6)).toEqual(['---', 'Today: $1.23 (disabled)', 'No anomalies in 7 days (disabled)', 'Refresh usage [usage-refresh]', '---', 'Quit Switchboard [quit]']);
  });

  it('no default: every radio unchecked, no Presets submenu', () => {
    const items = section(buildTrayMenu(view({ profiles: { ...profiles, default: null, presets: null } })));
    expect(items).toHaveLength(1);
    const sub = items[0] as Extract<TrayMenuItem, { type: 'submenu' }>;
    expect(sub.label).toBe('Profile: none chosen');
    expect(sub.items.every((i) => i.type === 'radio' && !i.checked)).toBe(true);
  });

  it('empty, unreadable presets and no profiles say so instead of showing nothing', () => {
    const sub = (p: TrayProfiles, i: number) => section(buildTrayMenu(view({ profiles: p })))[i] as Extract<TrayMenuItem, { type: 'submenu' }>;
    const noPresets = sub({ ...profiles, presets: [] }, 1);
    expect(noPresets.items).toEqual([{ type: 'normal', label: 'No presets', enabled: false }]);
    const unreadable = sub({ ...profiles, presets: null }, 1);
    expect(unreadable.items).toEqual([{ type: 'normal', label: 'Presets unavailable', enabled: false }]);
    const none = sub({ list: [], default: null, presets: null }, 0);
    expect(none.items).toEqual([{ type: 'normal', label: 'No profiles yet', enabled: false }]);
    expect(picture(section(buildTrayMenu(view({ profiles: null }))))).toEqual(['Profiles unavailable (disabled)']);
    expect(picture(buildTrayMenu(view({ profiles: undefined })))).not.toContain('Profiles unavailable (disabled)');
  });

  it('while a switch runs the radios are disabled; a running preset apply disables that preset only', () => {
    const enabled = (i: TrayMenuItem) => i.type !== 'separator' && i.enabled;
    const switching = section(buildTrayMenu(view({ profiles }, { pendingCommands: new Set(['set-default:proxy']) })));
    expect((switching[0] as Extract<TrayMenuItem, { type: 'submenu' }>).items.map(enabled)).toEqual([false, false]);
    const applying = section(buildTrayMenu(view({ profiles }, { pendingCommands: new Set(['apply-preset:glm/deep']) })));
    expect((applying[1] as Extract<TrayMenuItem, { type: 'submenu' }>).items.map(enabled)).toEqual([true, false]);
  });

  it('the tooltip names the default profile', () => {
    expect(trayTooltip(view({ profiles }))).toBe('Switchboard\nProfile: glm\nProxy stopped\nToday: $1.23');
    expect(trayTooltip(view({ profiles: { ...profiles, default: null } }))).toBe('Switchboard\nProxy stopped\nToday: $1.23');
  });
});
