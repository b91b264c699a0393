import { afterEach, describe, expect, it, vi } from 'vitest';
import { createApiClient } from '../../../main/app/api-client.js';
import type { DesktopNotice } from '../../../main/app/notifications.js';
import type { AppStatus, StatusSource } from '../../../main/app/status-source.js';
import { TrayController, type TrayFrame } from '../../../main/app/tray-controller.js';
import type { TrayMenuItem } from '../../../main/app/tray-menu.js';
import { silentLogger } from '../../../main/infra/logger.js';
import { AppEvents } from '../../../main/services/events.js';
import { startFakeApi, type FakeApi } from '../../fixtures/fake-api.js';

const STOPPED: AppStatus = {
  proxy: { running: false },
  bridge: { enabled: false, daemonRunning: false },
  todayCost: 2,
  anomalies: 0,
  desktop: { notifications: true, launchAtLogin: false },
};

/** A status source the test changes at will; counts reads; can hold a read open. */
class FakeSource implements StatusSource {
  status: AppStatus = STOPPED;
  reads = 0;
  hold: Promise<void> | undefined;
  fail = false;
  async read(): Promise<AppStatus> {
    this.reads++;
    await this.hold;
    if (this.fail) throw new Error('boom');
    return structuredClone(this.status);
  }
}

function deferred(): { promise: Promise<void>; resolve: () => void } {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => (resolve = r));
  return { promise, resolve };
}

const labels = (menu: TrayMenuItem[]) => menu.map((i) => (i.type === 'separator' ? '---' : `${i.label}${i.enabled ? '' : ' (disabled)'}`));

let api: FakeApi;
let controller: TrayController | undefined;

async function setup(now = () => 0) {
  api = await startFakeApi();
  const source = new FakeSource();
  const events = new AppEvents();
  const frames: TrayFrame[] = [];
  const notices: DesktopNotice[] = [];
  controller = new TrayController({
    api: createApiClient(api.url),
    source,
    events,
    render: (f) => frames.push(f),
    notify: (n) => notices.push(n),
    logger: silentLogger,
    now,
  });
  return { source, events, frames, notices, controller, last: () => labels(frames.at(-1)!.menu) };
}

afterEach(async () => {
  controller?.stop();
  controller = undefined;
  await api?.close();
});

describe('TrayController', () => {
  it('draws an "unavailable" menu at once, then the status the API serves', async () => {
    const t = await setup();
    await t.controller.start();
    expect(labels(t.frames[0]!.menu)[2]).toBe('Proxy status unavailable (disabled)');
    expect(t.last()[2]).toBe('Proxy stopped (disabled)');
    expect(t.frames.at(-1)!.tooltip).toBe('Switchboard\nProxy stopped\nToday: $2.00');
    expect(t.frames.at(-1)!.icon).toBe('stopped');
  });

  it('re-reads and redraws on every app event', async () => {
    const t = await setup();
    await t.controller.start();
    t.source.status = { ...STOPPED, proxy: { running: true, port: 8317, sessionCount: 1 } };
    t.events.emit('proxy-state', { state: 'running', running: true, port: 8317 });
    await t.controller.refresh();
    expect(t.last().slice(2, 4)).toEqual(['Proxy running on port 8317 · 1 session (disabled)', 'Stop proxy']);
    expect(t.frames.at(-1)!.icon).toBe('running');

    t.source.status = { ...STOPPED, todayCost: 3.5 };
    t.events.emit('usage-refreshed', { timestamp: 1 });
    await t.controller.refresh();
    expect(t.last()).toContain('Today: $3.50 (disabled)');

    t.source.status = { ...STOPPED, bridge: { enabled: true, daemonRunning: false, authenticated: true } };
    t.events.emit('config-changed', { section: 'cursor' });
    await t.controller.refresh();
    expect(t.last()).toContain('Bridge stopped (disabled)');
  });

  it('coalesces a burst of events into one extra read', async () => {
    const t = await setup();
    await t.controller.start();
    const gate = deferred();
    t.source.hold = gate.promise;
    const before = t.source.reads;
    for (let i = 0; i < 5; i++) t.events.emit('usage-refreshed', { timestamp: i });
    t.source.hold = undefined;
    gate.resolve();
    await t.controller.refresh();
    expect(t.source.reads - before).toBe(2);
  });

  it('does not redraw when nothing changed', async () => {
    const t = await setup();
    await t.controller.start();
    const count = t.frames.length;
    await t.controller.refresh();
    await t.controller.refresh();
    expect(t.frames.length).toBe(count);
  });

  it('a read that throws shows "unavailable" rather than stale lines', async () => {
    const t = await setup();
    await t.controller.start();
    t.source.fail = true;
    await t.controller.refresh();
    expect(t.last()[2]).toBe('Proxy status unavailable (disabled)');
  });

  it('Start proxy posts to the API, shows progress, then the new state', async () => {
    const t = await setup();
    await t.controller.start();
    const answer = deferred();
    api.set('POST /api/proxy/proxy-start', { status: 200, body: { started: true, alreadyRunning: false, port: 8317 }, delay: answer.promise });
    const done = t.controller.perform('proxy-start');
    expect(t.last().slice(2, 4)).toEqual(['Proxy starting… (disabled)', 'Start proxy (disabled)']);
    t.source.status = { ...STOPPED, proxy: { running: true, port: 8317, sessionCount: 0 } };
    answer.resolve();
    await done;
    expect(api.requests).toContain('POST /api/proxy/proxy-start');
    expect(t.last().slice(2, 4)).toEqual(['Proxy running on port 8317 · 0 sessions (disabled)', 'Stop proxy']);
    expect(t.notices).toEqual([]);
  });

  it('Restart proxy posts to the restart route, shows "restarting" meanwhile, then the running proxy (issue 28.7)', async () => {
    const t = await setup();
    t.source.status = { ...STOPPED, proxy: { running: true, port: 8317, sessionCount: 0 } };
    await t.controller.start();
    expect(t.last().slice(2, 5)).toEqual(['Proxy running on port 8317 · 0 sessions (disabled)', 'Stop proxy', 'Restart proxy']);
    const answer = deferred();
    api.set('POST /api/proxy/proxy-restart', { status: 200, body: { restarted: true, port: 8317, pid: 42, updatedProfiles: [] }, delay: answer.promise });
    const done = t.controller.perform('proxy-restart');
    expect(t.last().slice(2, 5)).toEqual(['Proxy restarting… (disabled)', 'Stop proxy (disabled)', 'Restarting proxy… (disabled)']);
    answer.resolve();
    await done;
    expect(api.requests).toContain('POST /api/proxy/proxy-restart');
    expect(t.last().slice(2, 5)).toEqual(['Proxy running on port 8317 · 0 sessions (disabled)', 'Stop proxy', 'Restart proxy']);
    expect(t.notices).toEqual([]);
  });

  it('a refused restart is one notice, even when the failure event follows', async () => {
    const t = await setup();
    t.source.status = { ...STOPPED, proxy: { running: true, port: 8317, sessionCount: 0 } };
    await t.controller.start();
    t.source.status = STOPPED;
    api.set('POST /api/proxy/proxy-restart', { status: 500, body: { error: 'Failed to start proxy', message: 'port 8317 is already in use by another process' } });
    await t.controller.perform('proxy-restart');
    t.events.emit('proxy-state', { state: 'failed', running: false, message: 'port 8317 is already in use by another process' });
    expect(t.notices).toEqual([
      { kind: 'proxy-start-failed', title: 'Proxy failed to restart', body: 'Failed to start proxy: port 8317 is already in use by another process' },
    ]);
  });

  it.each([
    ['proxy-stop', 'POST /api/proxy/proxy-stop'],
    ['bridge-start', 'POST /api/bridge/daemon/start'],
    ['bridge-stop', 'POST /api/bridge/daemon/stop'],
    ['usage-refresh', 'POST /api/usage/refresh'],
  ] as const)('%s calls %s', async (action, request) => {
    const t = await setup();
    await t.controller.start();
    api.set(request, { status: 200, body: { success: true } });
    await t.controller.perform(action);
    expect(api.requests).toContain(request);
  });

  it('a refused start is one notice, even when the failure event follows', async () => {
    const t = await setup();
    await t.controller.start();
    api.set('POST /api/proxy/proxy-start', { status: 500, body: { error: 'Failed to start proxy', message: 'port 8317 is already in use by another process' } });
    await t.controller.perform('proxy-start');
    t.events.emit('proxy-state', { state: 'starting', running: false });
    t.events.emit('proxy-state', { state: 'failed', running: false, message: 'port 8317 is already in use by another process' });
    expect(t.notices).toEqual([
      { kind: 'proxy-start-failed', title: 'Proxy failed to start', body: 'Failed to start proxy: port 8317 is already in use by another process' },
    ]);
    await t.controller.refresh();
    expect(t.last()[2]).toBe('Proxy failed: port 8317 is already in use by another process (disabled)');
  });

  it('an account whose refresh failed is a notice with the provider\'s reason; other account events are not', async () => {
    const t = await setup();
    await t.controller.start();
    t.events.emit('account', { reason: 'signed-in', provider: 'codex', account: { label: 'a@b.c' } });
    t.events.emit('account', { reason: 'error', provider: 'codex', account: { label: 'a@b.c (plus)' }, error: 'codex: signed out by the provider: sign in again (refresh_token_reused)' });
    expect(t.notices).toEqual([
      { kind: 'account-error', title: 'codex account a@b.c (plus) needs attention', body: 'codex: signed out by the provider: sign in again (refresh_token_reused)' },
    ]);
  });

  it('a refused bridge start tells why', async () => {
    const t = await setup();
    await t.controller.start();
    api.set('POST /api/bridge/daemon/start', { status: 401, body: { error: 'Bridge credentials missing' } });
    await t.controller.perform('bridge-start');
    expect(t.notices).toEqual([{ kind: 'bridge-start-failed', title: 'Bridge failed to start', body: 'Bridge credentials missing' }]);
  });

  it('an unexpected proxy exit notifies once, and the tray line picks up the later detail', async () => {
    let now = 0;
    const t = await setup(() => now);
    await t.controller.start();
    t.events.emit('proxy-state', { state: 'running', running: true, port: 8317 });
    t.events.emit('proxy-state', { state: 'running', running: true, port: 8317 });
    t.events.emit('proxy-state', { state: 'failed', running: false, message: 'proxy-engine exited unexpectedly' });
    now = 100;
    t.events.emit('proxy-state', { state: 'failed', running: false, message: 'proxy-engine exited unexpectedly (code 1): listen failed' });
    expect(t.notices).toEqual([{ kind: 'proxy-exited', title: 'Proxy exited unexpectedly', body: 'proxy-engine exited unexpectedly' }]);
    await t.controller.refresh();
    expect(t.last()[2]).toBe('Proxy failed: proxy-engine exited unexpectedly (code 1): listen failed (disabled)');
    expect(t.frames.at(-1)!.icon).toBe('error');
  });

  it('a bridge start failure from its state events is a notice', async () => {
    const t = await setup();
    await t.controller.start();
    t.events.emit('bridge-state', { state: 'starting', running: false });
    t.events.emit('bridge-state', { state: 'failed', running: false, message: 'health check timed out' });
    expect(t.notices).toEqual([{ kind: 'bridge-start-failed', title: 'Bridge failed to start', body: 'health check timed out' }]);
  });

  it('new anomalies notify; desktop.notifications false silences every notice', async () => {
    const t = await setup();
    await t.controller.start();
    t.events.emit('anomaly', { type: 'cost_spike', date: '2026-01-05', message: 'Cost spike' });
    expect(t.notices.map((n) => n.kind)).toEqual(['anomaly']);

    t.source.status = { ...STOPPED, desktop: { notifications: false, launchAtLogin: false } };
    await t.controller.refresh();
    t.events.emit('anomaly', { type: 'high_input', date: '2026-01-06', message: 'High input' });
    t.events.emit('proxy-state', { state: 'failed', running: false, message: 'x' });
    expect(t.notices.map((n) => n.kind)).toEqual(['anomaly']);
  });

  it('an error rate crossing desktop.error_rate_notice notifies once; it re-arms only after falling clearly below', async () => {
    let clock = 0;
    const t = await setup(() => clock);
    const busy = (errorRate: number) => ({ requestsPerMinute: 2, errorRate, hourRequests: 20, hourErrors: Math.round(errorRate * 20), lastError: null });
    t.source.status = { ...STOPPED, desktop: { notifications: true, launchAtLogin: false, errorRateNotice: 0.2 }, traffic: busy(0.05) };
    await t.controller.start();
    expect(t.notices).toEqual([]);
    t.source.status = { ...t.source.status, traffic: busy(0.3) };
    await t.controller.refresh();
    await t.controller.refresh();
    expect(t.notices.map((n) => n.title)).toEqual(['Proxy error rate 30%']);
    // A failed read neither re-arms nor notifies.
    t.source.fail = true;
    await t.controller.refresh();
    t.source.fail = false;
    await t.controller.refresh();
    expect(t.notices).toHaveLength(1);
    t.source.status = { ...t.source.status, traffic: busy(0.1) };
    await t.controller.refresh();
    clock += 60_000;
    t.source.status = { ...t.source.status, traffic: busy(0.5) };
    await t.controller.refresh();
    expect(t.notices.map((n) => n.title)).toEqual(['Proxy error rate 30%', 'Proxy error rate 50%']);
    expect(t.last()).toContain('Requests: 2.0/min · 50% errors (1 h) (disabled)');
  });

  it('the error-rate notice is off without the setting, and silenced by desktop.notifications false', async () => {
    const t = await setup();
    const traffic = { requestsPerMinute: 2, errorRate: 0.9, hourRequests: 20, hourErrors: 18, lastError: null };
    t.source.status = { ...STOPPED, traffic };
    await t.controller.start();
    t.source.status = { ...STOPPED, desktop: { notifications: false, launchAtLogin: false, errorRateNotice: 0.2 }, traffic };
    await t.controller.refresh();
    expect(t.notices).toEqual([]);
  });

  it('stop() removes every listener it added', async () => {
    const t = await setup();
    const baseline = t.events.listenerCount();
    await t.controller.start();
    expect(t.events.listenerCount()).toBe(baseline + 7);
    t.controller.stop();
    expect(t.events.listenerCount()).toBe(baseline);
  });

  it('re-reads on its own timer, for cost that grows without events', async () => {
    api = await startFakeApi();
    const source = new FakeSource();
    controller = new TrayController({
      api: createApiClient(api.url),
      source,
      events: new AppEvents(),
      render: () => {},
      notify: () => {},
      logger: silentLogger,
      refreshEveryMs: 20,
    });
    await controller.start();
    const after = source.reads;
    await vi.waitFor(() => expect(source.reads).toBeGreaterThan(after), { timeout: 30_000 });
  });

  describe('profile commands (issue 18)', () => {
    const PROFILES = { list: [{ name: 'glm', model: 'glm-4.6', usesProxy: false }, { name: 'proxy', model: null, usesProxy: true }], default: 'glm', presets: ['fast'] };
    /** The n-th submenu of the last frame (0 = profiles, 1 = presets). */
    const submenu = (frames: TrayFrame[], n: number) => frames.at(-1)!.menu.filter((i) => i.type === 'submenu')[n] as Extract<TrayMenuItem, { type: 'submenu' }>;

    it('a profile click PUTs the default with the profile, disables the radios meanwhile, then shows the new default', async () => {
      const t = await setup();
      t.source.status = { ...STOPPED, profiles: PROFILES };
      await t.controller.start();
      const answer = deferred();
      api.set('PUT /api/profiles/default', { status: 200, body: { success: true, default: 'proxy' }, delay: answer.promise });
      const done = t.controller.run({ kind: 'set-default', profile: 'proxy' });
      expect(submenu(t.frames, 0).items.every((i) => i.type !== 'separator' && !i.enabled)).toBe(true);
      t.source.status = { ...STOPPED, profiles: { ...PROFILES, default: 'proxy', presets: [] } };
      answer.resolve();
      await done;
      const index = api.requests.indexOf('PUT /api/profiles/default');
      expect(index).toBeGreaterThanOrEqual(0);
      expect(JSON.parse(api.bodies[index]!)).toEqual({ profile: 'proxy' });
      expect(submenu(t.frames, 0).label).toBe('Profile: proxy');
      expect(t.frames.at(-1)!.tooltip).toContain('Profile: proxy');
      expect(t.notices).toEqual([]);
    });

    it('a preset click POSTs the apply route of the default profile (names encoded)', async () => {
      const t = await setup();
      t.source.status = { ...STOPPED, profiles: PROFILES };
      await t.controller.start();
      api.set('POST /api/settings/glm/presets/fast%20one/apply', { status: 200, body: { applied: 'fast one' } });
      await t.controller.run({ kind: 'apply-preset', profile: 'glm', preset: 'fast one' });
      const index = api.requests.indexOf('POST /api/settings/glm/presets/fast%20one/apply');
      expect(index).toBeGreaterThanOrEqual(0);
      expect(JSON.parse(api.bodies[index]!)).toEqual({});
    });

    it('a refused switch is a notice with the API reason', async () => {
      const t = await setup();
      await t.controller.start();
      api.set('PUT /api/profiles/default', { status: 404, body: { error: 'Settings not found', message: 'No settings file for profile gone' } });
      await t.controller.run({ kind: 'set-default', profile: 'gone' });
      expect(t.notices).toEqual([{ kind: 'profile-switch-failed', title: 'Could not switch to gone', body: 'Settings not found: No settings file for profile gone' }]);
    });

    it('re-reads on the profiles event', async () => {
      const t = await setup();
      await t.controller.start();
      const before = t.source.reads;
      t.events.emit('profiles', { reason: 'default', profiles: ['glm'] });
      await t.controller.refresh();
      expect(t.source.reads).toBeGreaterThan(before);
    });
  });
});
