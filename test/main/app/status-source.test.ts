import { afterEach, describe, expect, it } from 'vitest';
import { createApiClient, describeFailure } from '../../../main/app/api-client.js';
import { clockIn, createHttpStatusSource, dayIn } from '../../../main/app/status-source.js';
import { startTestApp, type TestApp } from '../../helpers/app.js';
import { startFakeApi, type FakeApi } from '../../fixtures/fake-api.js';

let api: FakeApi | undefined;
let app: TestApp | undefined;

afterEach(async () => {
  await api?.close();
  await app?.stop();
  api = undefined;
  app = undefined;
});

const NOON_UTC = new Date('2026-01-01T12:00:00Z');

function configAnswer(overrides: Record<string, unknown> = {}) {
  return {
    status: 200,
    body: {
      config: { usage: { timezone: 'UTC' }, cursor: { enabled: false }, desktop: { notifications: true, launch_at_login: false }, ...overrides },
      mtime: 1,
      path: '/x/config.yaml',
    },
  };
}

describe('createHttpStatusSource', () => {
  it('reads every part from the API endpoints the dashboard uses', async () => {
    api = await startFakeApi();
    api.set('GET /api/proxy/proxy-status', { status: 200, body: { running: true, port: 8317, pid: 4242, sessionCount: 2, startedAt: 1 } });
    api.set('GET /api/bridge/status', {
      status: 200,
      body: { enabled: true, authenticated: true, tokenExpired: false, daemonRunning: true, pid: 7, port: 20129, autoStart: false, ghostMode: true },
    });
    api.set('GET /api/config', configAnswer({ desktop: { notifications: false, launch_at_login: true } }));
    api.set('GET /api/usage/summary?since=20260101&until=20260101', { status: 200, body: { totalCost: 4.5, totalTokens: 10 } });
    // Today is 2026-01-01: the last 7 days start on 2025-12-26; the one of 2025-12-25 is history.
    const anomalies = [{ type: 'cost_spike', date: '2026-01-01' }, { type: 'high_input', date: '2025-12-26' }, { type: 'high_input', date: '2025-12-25' }, { type: 'cost_spike', date: '2025-11-20' }];
    api.set('GET /api/usage/insights', { status: 200, body: { anomalies, thresholds: {} } });
    api.set('GET /api/proxy/requests/stats', {
      status: 200,
      body: {
        perMinute: [
          { minute: 1, requests: 8, errors: 1 },
          { minute: 2, requests: 4, errors: 2 },
        ],
        requestsPerMinute: 2.4,
        errorRate: 0.25,
        lastError: { id: 'r1', time: Date.parse('2026-01-01T11:58:30Z'), status: 502, modelRequested: 'gpt-4o', modelSent: 'gpt-4o-2024', error: 'upstream connection refused' },
      },
    });
    api.set('GET /api/profiles', {
      status: 200,
      body: {
        profiles: [
          { name: 'glm', path: '/x', mtime: 1, default: true, baseUrl: 'api.z.ai', model: 'glm-4.6', usesProxy: false },
          { name: 'my proxy', path: '/y', mtime: 1, baseUrl: '127.0.0.1:8317', model: null, usesProxy: true },
        ],
        default: 'glm',
      },
    });
    api.set('GET /api/settings/glm/presets', { status: 200, body: { presets: [{ name: 'fast', default: 'm' }] } });
    api.set('GET /api/accounts', {
      status: 200,
      body: { accounts: [{ provider: 'codex', accountId: 'a@b.c', email: 'a@b.c', label: 'a@b.c (plus)', status: 'error', expiresAt: null, lastRefresh: null, lastError: 'codex: sign in again', models: [], file: 'codex-1.json' }] },
    });
    const health = (name: string, failing: boolean, lastError: unknown) => ({
      name, format: 'openai', baseUrl: 'http://x', models: [], keyCount: 1, requests: 3, errors: failing ? 3 : 0, successRate: failing ? 0 : 1, medianLatencyMs: 5, lastError, failing, coolingKeys: [],
    });
    api.set('GET /api/proxy/upstreams', {
      status: 200,
      body: {
        upstreams: [health('ok', false, null), health('rot', true, { status: 429, at: 1, message: 'rate limited' }), health('gone', true, { status: 0, at: 1, message: null })],
        since: 0, until: 1, cooldownSeconds: 60, configMtime: 1,
      },
    });
    const status = await createHttpStatusSource(createApiClient(api.url), () => NOON_UTC).read();
    expect(status).toEqual({
      failingUpstreams: [
        { name: 'rot', lastError: { status: 429, message: 'rate limited' } },
        { name: 'gone', lastError: { status: 0, message: null } },
      ],
      proxy: { running: true, port: 8317, sessionCount: 2 },
      bridge: { enabled: true, daemonRunning: true, port: 20129, authenticated: true, tokenExpired: false },
      todayCost: 4.5,
      anomalies: 2,
      desktop: { notifications: false, launchAtLogin: true, errorRateNotice: null },
      traffic: {
        requestsPerMinute: 2.4,
        errorRate: 0.25,
        hourRequests: 12,
        hourErrors: 3,
        lastError: { status: 502, model: 'gpt-4o', message: 'upstream connection refused', at: '11:58' },
      },
      profiles: {
        list: [
          { name: 'glm', model: 'glm-4.6', usesProxy: false },
          { name: 'my proxy', model: null, usesProxy: true },
        ],
        default: 'glm',
        presets: ['fast'],
      },
      accounts: [{ provider: 'codex', label: 'a@b.c (plus)', status: 'error', lastError: 'codex: sign in again' }],
    });
  });

  it('asks for "today" in the usage timezone of config.yaml', async () => {
    api = await startFakeApi();
    api.set('GET /api/config', configAnswer({ usage: { timezone: 'Pacific/Auckland' } }));
    api.set('GET /api/usage/summary?since=20260102&until=20260102', { status: 200, body: { totalCost: 0.5 } });
    const status = await createHttpStatusSource(createApiClient(api.url), () => NOON_UTC).read();
    expect(status.todayCost).toBe(0.5);
    expect(api.requests).toContain('GET /api/usage/summary?since=20260102&until=20260102');
  });

  it('every part the API cannot answer is null, never an exception', async () => {
    api = await startFakeApi();
    const status = await createHttpStatusSource(createApiClient(api.url), () => NOON_UTC).read();
    expect(status).toEqual({ proxy: null, bridge: null, todayCost: null, anomalies: null, desktop: null, traffic: null, profiles: null, accounts: null, failingUpstreams: null });
  });

  it('answers of the wrong shape count as unavailable', async () => {
    api = await startFakeApi();
    api.set('GET /api/proxy/proxy-status', { status: 200, body: { running: 'yes' } });
    api.set('GET /api/usage/insights', { status: 200, body: { anomalies: 3 } });
    api.set('GET /api/config', { status: 200, body: 'not json at all' });
    const status = await createHttpStatusSource(createApiClient(api.url), () => NOON_UTC).read();
    expect(status.proxy).toBeNull();
    expect(status.anomalies).toBeNull();
    expect(status.desktop).toBeNull();
  });

  it('an error status is unavailable even with a plausible body', async () => {
    api = await startFakeApi();
    api.set('GET /api/usage/insights', { status: 503, body: { error: 'Cache unavailable', anomalies: [] } });
    const status = await createHttpStatusSource(createApiClient(api.url), () => NOON_UTC).read();
    expect(status.anomalies).toBeNull();
  });

  it('reads desktop.error_rate_notice; a last error without model or text keeps nulls, its time in the usage zone', async () => {
    api = await startFakeApi();
    api.set('GET /api/config', configAnswer({ usage: { timezone: 'Asia/Tokyo' }, desktop: { error_rate_notice: 0.2 } }));
    api.set('GET /api/proxy/requests/stats', {
      status: 200,
      body: { perMinute: [], requestsPerMinute: 0, errorRate: null, lastError: { time: Date.parse('2026-01-01T11:05:00Z'), status: 401, modelRequested: null, modelSent: null, error: null } },
    });
    const status = await createHttpStatusSource(createApiClient(api.url), () => NOON_UTC).read();
    expect(status.desktop?.errorRateNotice).toBe(0.2);
    expect(status.traffic).toEqual({ requestsPerMinute: 0, errorRate: null, hourRequests: 0, hourErrors: 0, lastError: { status: 401, model: null, message: null, at: '20:05' } });
  });

  it('request stats of the wrong shape are unavailable', async () => {
    api = await startFakeApi();
    api.set('GET /api/proxy/requests/stats', { status: 200, body: { perMinute: 'lots', requestsPerMinute: 1, errorRate: 0, lastError: null } });
    const status = await createHttpStatusSource(createApiClient(api.url), () => NOON_UTC).read();
    expect(status.traffic).toBeNull();
  });

  it('the bridge stays in the menu from config.yaml when its status cannot be read', async () => {
    api = await startFakeApi();
    api.set('GET /api/config', configAnswer({ cursor: { enabled: true } }));
    const status = await createHttpStatusSource(createApiClient(api.url), () => NOON_UTC).read();
    expect(status.bridge).toEqual({ enabled: true, daemonRunning: null });
  });

  it('an API that is gone gives an all-unavailable status', async () => {
    api = await startFakeApi();
    const url = api.url;
    await api.close();
    api = undefined;
    const status = await createHttpStatusSource(createApiClient(url, { readMs: 2_000 }), () => NOON_UTC).read();
    expect(status).toEqual({ proxy: null, bridge: null, todayCost: null, anomalies: null, desktop: null, traffic: null, profiles: null, accounts: null, failingUpstreams: null });
  });

  it('reads the real app: desktop settings and bridge switch as the API serves them', async () => {
    app = await startTestApp();
    const status = await createHttpStatusSource(createApiClient(app.url)).read();
    expect(status.desktop).toEqual({ notifications: true, launchAtLogin: false, errorRateNotice: null });
    // From /api/bridge/status, or from config.yaml while that router is not mounted.
    expect(status.bridge?.enabled).toBe(false);
  });
});

describe('dayIn', () => {
  it.each([
    ['UTC', '2026-01-01T23:30:00Z', '20260101'],
    ['Pacific/Auckland', '2026-01-01T12:00:00Z', '20260102'],
    ['America/Los_Angeles', '2026-01-01T05:00:00Z', '20251231'],
  ])('%s at %s is %s', (zone, iso, day) => {
    expect(dayIn(zone, new Date(iso))).toBe(day);
  });

  it('an unknown zone falls back to the system zone instead of throwing', () => {
    const date = new Date('2026-06-15T12:00:00Z');
    expect(dayIn('Not/AZone', date)).toBe(dayIn('', date));
  });
});

describe('clockIn', () => {
  it.each([
    ['UTC', '2026-01-01T23:30:00Z', '23:30'],
    ['Pacific/Auckland', '2026-01-01T12:00:00Z', '01:00'],
    ['America/Los_Angeles', '2026-01-01T05:07:00Z', '21:07'],
  ])('%s at %s is %s', (zone, iso, clock) => {
    expect(clockIn(zone, new Date(iso))).toBe(clock);
  });

  it('an unknown zone falls back to the system zone', () => {
    const date = new Date('2026-06-15T12:00:00Z');
    expect(clockIn('Not/AZone', date)).toBe(clockIn('', date));
  });
});

describe('describeFailure', () => {
  it('keeps only the error and message of an API answer', () => {
    expect(describeFailure({ ok: false, status: 500, body: { error: 'Failed to start proxy', message: 'port 8317 busy', stack: 'x' } })).toBe(
      'Failed to start proxy: port 8317 busy',
    );
    expect(describeFailure({ ok: false, status: 401, body: { error: 'Bridge credentials missing' } })).toBe('Bridge credentials missing');
    expect(describeFailure({ ok: false, status: 502, body: '<html>' })).toBe('HTTP 502');
  });
});
