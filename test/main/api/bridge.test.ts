import fs from 'node:fs/promises';
import http from 'node:http';
import path from 'node:path';
import express from 'express';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createBridgeRouter } from '../../../main/api/bridge.js';
import { errorHandler } from '../../../main/api/middleware/errors.js';
import { RouteRegistry } from '../../../main/api/route.js';
import { ManualClock } from '../../../main/infra/clock.js';
import { silentLogger } from '../../../main/infra/logger.js';
import { findFreePort } from '../../../main/infra/port-probe.js';
import { isProcessAlive } from '../../../main/infra/process-alive.js';
import type { Services } from '../../../main/services/index.js';
import { startTestApp, type TestApp } from '../../helpers/app.js';
import { makeEditorDb, MACHINE_ID_HEX, MACHINE_ID_UUID, PLAIN_TOKEN, requireSqlite3 } from '../../fixtures/bridge/editor-db.js';
import { startFakeUpstream, UPSTREAM_MODELS, type FakeUpstream } from '../../fixtures/bridge/fake-upstream.js';
import { bridgeHarness } from '../../fixtures/bridge/service.js';

let upstream: FakeUpstream;
beforeAll(async () => {
  requireSqlite3();
  upstream = await startFakeUpstream();
});
afterAll(() => upstream.close());

const apps: TestApp[] = [];
afterEach(async () => {
  for (const app of apps.splice(0)) await app.stop();
});

async function app(options: { config?: string; env?: NodeJS.ProcessEnv; clock?: ManualClock } = {}): Promise<TestApp> {
  const started = await startTestApp({
    clock: options.clock,
    env: options.env,
    before: async ({ home }) => {
      if (options.config === undefined) return;
      await fs.mkdir(home, { recursive: true, mode: 0o700 });
      await fs.writeFile(path.join(home, 'config.yaml'), options.config, { mode: 0o600 });
    },
  });
  apps.push(started);
  return started;
}

/** An app with the bridge enabled on a free port, talking to the fake upstream. */
async function enabledApp(clock?: ManualClock, extra = ''): Promise<TestApp & { bridgePort: number }> {
  const port = await findFreePort();
  const a = await app({ clock, config: `# user comment\ncursor:\n  enabled: true\n  port: ${port}\n  upstream_url: ${upstream.url}\n${extra}` });
  return Object.assign(a, { bridgePort: port });
}

const importBody = { accessToken: PLAIN_TOKEN, machineId: MACHINE_ID_UUID };

describe('GET /api/bridge/status', () => {
  it('answers every documented field', async () => {
    const a = await app();
    expect(await a.json('GET', '/api/bridge/status')).toEqual({
      status: 200,
      body: {
        enabled: false,
        authenticated: false,
        authMethod: null,
        tokenAgeHours: null,
        tokenExpired: false,
        expiresAt: null,
        daemonRunning: false,
        pid: null,
        port: 20129,
        autoStart: false,
        ghostMode: true,
      },
    });
  });
});

describe('POST /api/bridge/auth/import', () => {
  it('400 Missing accessToken or machineId', async () => {
    const a = await app();
    for (const body of [undefined, {}, { accessToken: PLAIN_TOKEN }, { machineId: MACHINE_ID_HEX }, { accessToken: '  ', machineId: MACHINE_ID_HEX }]) {
      const res = await a.json('POST', '/api/bridge/auth/import', body);
      expect(res.status).toBe(400);
      expect(res.body.error).toBe('Missing accessToken or machineId');
    }
    const named = await a.json('POST', '/api/bridge/auth/import', { accessToken: PLAIN_TOKEN });
    expect(named.body.message).toBe('machineId: is required');
  });

  it('400 Invalid token or machine ID format: 50 characters, bad machine id, wrong types', async () => {
    const a = await app();
    for (const body of [
      { accessToken: 'x'.repeat(50), machineId: MACHINE_ID_HEX },
      { accessToken: 'x'.repeat(51), machineId: MACHINE_ID_HEX.slice(1) },
      { accessToken: 'x'.repeat(51), machineId: 'z'.repeat(32) },
      { accessToken: 12345, machineId: MACHINE_ID_HEX },
    ]) {
      const res = await a.json('POST', '/api/bridge/auth/import', body);
      expect(res.status).toBe(400);
      expect(res.body.error).toBe('Invalid token or machine ID format');
    }
    await expect(fs.access(path.join(a.home, 'cursor', 'credentials.json'))).rejects.toThrow();
  });

  it('200: 51 characters and a hyphenated machine id are accepted and stored 0600', async () => {
    const a = await app();
    const res = await a.json('POST', '/api/bridge/auth/import', { accessToken: 'x'.repeat(51), machineId: MACHINE_ID_UUID });
    expect(res).toEqual({ status: 200, body: { success: true, message: 'Credentials imported' } });
    const file = path.join(a.home, 'cursor', 'credentials.json');
    expect((await fs.stat(file)).mode & 0o777).toBe(0o600);
    expect((await fs.stat(path.dirname(file))).mode & 0o777).toBe(0o700);
    expect(JSON.parse(await fs.readFile(file, 'utf8'))).toMatchObject({ machineId: MACHINE_ID_HEX, authMethod: 'manual' });
    expect((await a.json('GET', '/api/bridge/status')).body).toMatchObject({ authenticated: true, authMethod: 'manual', tokenAgeHours: 0 });
  });
});

describe('POST /api/bridge/auth/auto-detect', () => {
  it('200 from a real editor database', async () => {
    const a0 = await app();
    const db = makeEditorDb(path.join(a0.home, '..', 'editor'), { 'cursorAuth/accessToken': PLAIN_TOKEN, 'telemetry.machineId': MACHINE_ID_HEX });
    const a = await app({ env: { SWITCHBOARD_BRIDGE_DB: db } });
    const res = await a.json('POST', '/api/bridge/auth/auto-detect');
    expect(res).toEqual({ status: 200, body: { success: true, message: 'Credentials imported from the editor' } });
    expect((await a.json('GET', '/api/bridge/status')).body).toMatchObject({ authenticated: true, authMethod: 'auto-detect' });
  });

  it('404 Editor database not found', async () => {
    const a = await app({ env: { SWITCHBOARD_BRIDGE_DB: '/nonexistent/state.vscdb' } });
    const res = await a.json('POST', '/api/bridge/auth/auto-detect');
    expect(res.status).toBe(404);
    expect(res.body.error).toBe('Editor database not found');
  });

  it('503 sqlite3 is not available', async () => {
    const a0 = await app();
    const db = makeEditorDb(path.join(a0.home, '..', 'editor'), { 'cursorAuth/accessToken': PLAIN_TOKEN });
    const a = await app({ env: { SWITCHBOARD_BRIDGE_DB: db, SWITCHBOARD_SQLITE3: '/nonexistent/bin/sqlite3' } });
    const res = await a.json('POST', '/api/bridge/auth/auto-detect');
    expect(res.status).toBe(503);
    expect(res.body.error).toBe('sqlite3 is not available');
  });

  it('400 Invalid token or machine ID format for missing or malformed keys', async () => {
    const a0 = await app();
    const rows: Array<Record<string, string>> = [{}, { 'cursorAuth/accessToken': 'short', 'storage.serviceMachineId': MACHINE_ID_HEX }];
    for (const [i, row] of rows.entries()) {
      const db = makeEditorDb(path.join(a0.home, '..', `bad-${i}`), { unrelated: 'x', ...row });
      const a = await app({ env: { SWITCHBOARD_BRIDGE_DB: db } });
      const res = await a.json('POST', '/api/bridge/auth/auto-detect');
      expect(res.status).toBe(400);
      expect(res.body.error).toBe('Invalid token or machine ID format');
    }
  });

  it('501 on Windows', async () => {
    const h = await bridgeHarness({ platform: 'win32' });
    const registry = new RouteRegistry();
    const server = express()
      .use(express.json())
      .use(createBridgeRouter({ services: { ctx: h.ctx, bridge: h.bridge } as unknown as Services, registry, logger: silentLogger }))
      .use(errorHandler(silentLogger))
      .listen(0, '127.0.0.1');
    await new Promise((r) => server.once('listening', r));
    try {
      const res = await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}/api/bridge/auth/auto-detect`, { method: 'POST' });
      expect(res.status).toBe(501);
      expect(await res.json()).toEqual({ error: 'Auto-detect is not supported on Windows; import the token manually' });
    } finally {
      server.close();
      await h.cleanup();
    }
  });
});

describe('POST /api/bridge/daemon/start and stop', () => {
  it('400 Bridge is disabled', async () => {
    const a = await app();
    await a.json('POST', '/api/bridge/auth/import', importBody);
    const res = await a.json('POST', '/api/bridge/daemon/start');
    expect(res.status).toBe(400);
    expect(res.body.error).toBe('Bridge is disabled');
  });

  it('401 Bridge credentials missing, 401 Bridge credentials expired', async () => {
    const clock = new ManualClock();
    const a = await enabledApp(clock);
    const missing = await a.json('POST', '/api/bridge/daemon/start');
    expect(missing.status).toBe(401);
    expect(missing.body.error).toBe('Bridge credentials missing');
    await a.json('POST', '/api/bridge/auth/import', importBody);
    clock.advance(24 * 60 * 60 * 1000);
    const expired = await a.json('POST', '/api/bridge/daemon/start');
    expect(expired.status).toBe(401);
    expect(expired.body.error).toBe('Bridge credentials expired');
    expect((await a.json('GET', '/api/bridge/status')).body).toMatchObject({ authenticated: false, tokenExpired: true, tokenAgeHours: 24 });
  });

  it('500 when the daemon cannot start (port taken by another process)', async () => {
    const a = await enabledApp();
    const squatter = http.createServer((_q, r) => r.end('mine'));
    await new Promise<void>((r) => squatter.listen(a.bridgePort, '127.0.0.1', r));
    try {
      await a.json('POST', '/api/bridge/auth/import', importBody);
      const res = await a.json('POST', '/api/bridge/daemon/start');
      expect(res.status).toBe(500);
      expect(res.body.error).toBe('Failed to start bridge daemon');
      expect(res.body.message).toMatch(/already in use/);
    } finally {
      squatter.close();
    }
  });

  it('200 starts the real daemon, lists its models, stops it', async () => {
    const a = await enabledApp();
    const states: string[] = [];
    a.services.ctx.events.on('bridge-state', (e) => states.push(e.state));
    await a.json('POST', '/api/bridge/auth/import', importBody);
    const started = await a.json('POST', '/api/bridge/daemon/start');
    expect(started).toEqual({ status: 200, body: { success: true, pid: expect.any(Number), port: a.bridgePort } });
    const { pid } = started.body;
    expect((await a.json('GET', '/api/bridge/status')).body).toMatchObject({ daemonRunning: true, pid, port: a.bridgePort });

    // The agent's profile for the bridge (cursor.settings.json) points at the daemon with its token.
    const profile = await a.json('GET', '/api/settings/cursor/raw');
    expect(profile.status).toBe(200);
    const token = (await fs.readFile(path.join(a.home, 'cursor', 'daemon-token'), 'utf8')).trim();
    expect(profile.body.settings.env).toEqual({
      PROVIDER_BASE_URL: `http://127.0.0.1:${a.bridgePort}`,
      PROVIDER_AUTH_TOKEN: token,
      PROVIDER_MODEL: 'claude-4.5-sonnet',
    });
    expect((await fs.stat(path.join(a.home, 'cursor.settings.json'))).mode & 0o777).toBe(0o600);

    const models = await a.json('GET', '/api/bridge/models');
    expect(models.status).toBe(200);
    expect(models.body.current).toBe('claude-4.5-sonnet');
    expect(models.body.models.map((m: { id: string }) => m.id)).toEqual(UPSTREAM_MODELS);
    expect(models.body.models[0]).toEqual({ id: 'claude-4.5-sonnet', name: 'Claude 4.5 Sonnet', provider: 'cursor', isDefault: true });

    expect(await a.json('POST', '/api/bridge/daemon/stop')).toEqual({ status: 200, body: { success: true, stopped: true } });
    expect(isProcessAlive(pid)).toBe(false);
    expect(await a.json('POST', '/api/bridge/daemon/stop')).toEqual({ status: 200, body: { success: true, stopped: false } });
    expect(states).toContain('running');
    expect(states.at(-1)).toBe('stopped');
  });
});

describe('GET /api/bridge/models', () => {
  it('answers the built-in list, marking the configured default, while the daemon is stopped', async () => {
    const a = await app({ config: 'cursor:\n  model: gpt-5\n' });
    const res = await a.json('GET', '/api/bridge/models');
    expect(res.status).toBe(200);
    expect(res.body.current).toBe('gpt-5');
    expect(res.body.models.filter((m: { isDefault: boolean }) => m.isDefault)).toEqual([{ id: 'gpt-5', name: 'GPT-5', provider: 'openai', isDefault: true }]);
    for (const m of res.body.models) expect(Object.keys(m).sort()).toEqual(['id', 'isDefault', 'name', 'provider']);
  });
});

describe('/api/bridge/settings', () => {
  it('GET answers the bare section with defaults', async () => {
    const a = await app({ config: 'cursor:\n  port: 20200\n' });
    expect(await a.json('GET', '/api/bridge/settings')).toEqual({
      status: 200,
      body: {
        enabled: false,
        port: 20200,
        auto_start: false,
        ghost_mode: true,
        model: 'claude-4.5-sonnet',
        opus_model: '',
        sonnet_model: '',
        haiku_model: '',
        upstream_url: 'https://api2.cursor.sh',
      },
    });
  });

  it('PUT a partial section → {success, cursor}, comments kept', async () => {
    const a = await app({ config: '# mine\ncursor:\n  # the port\n  port: 20200\n' });
    const res = await a.json('PUT', '/api/bridge/settings', { enabled: true, opus_model: 'gpt-5', ghost_mode: false });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      success: true,
      cursor: expect.objectContaining({ enabled: true, port: 20200, opus_model: 'gpt-5', ghost_mode: false }),
    });
    expect((await a.json('GET', '/api/bridge/settings')).body).toEqual(res.body.cursor);
    const text = await fs.readFile(path.join(a.home, 'config.yaml'), 'utf8');
    expect(text).toContain('# mine');
    expect(text).toContain('# the port');
  });

  it('PUT 400 Invalid bridge settings naming the field; nothing written', async () => {
    const a = await app({ config: 'cursor:\n  port: 20200\n' });
    const before = await fs.readFile(path.join(a.home, 'config.yaml'), 'utf8');
    for (const [body, field] of [
      [{ port: 0 }, 'port'],
      [{ port: 'x' }, 'port'],
      [{ enabled: 'yes' }, 'enabled'],
      [{ model: '' }, 'model'],
      [{ upstream_url: 'file:///etc/passwd' }, 'upstream_url'],
      [{ colour: 'blue' }, 'colour'],
      [[], 'body'],
    ] as const) {
      const res = await a.json('PUT', '/api/bridge/settings', body);
      expect(res.status).toBe(400);
      expect(res.body.error).toBe('Invalid bridge settings');
      expect(res.body.message).toContain(field);
    }
    expect(await fs.readFile(path.join(a.home, 'config.yaml'), 'utf8')).toBe(before);
  });
});

describe('app lifecycle', () => {
  it('auto-starts the daemon when enabled with valid credentials and stops it when the app stops', async () => {
    const port = await findFreePort();
    const a = await startTestApp({
      before: async ({ home }) => {
        await fs.mkdir(path.join(home, 'cursor'), { recursive: true, mode: 0o700 });
        await fs.writeFile(path.join(home, 'config.yaml'), `cursor:\n  enabled: true\n  auto_start: true\n  port: ${port}\n  upstream_url: ${upstream.url}\n`);
        await fs.writeFile(
          path.join(home, 'cursor', 'credentials.json'),
          JSON.stringify({ accessToken: PLAIN_TOKEN, machineId: MACHINE_ID_HEX, authMethod: 'manual', importedAt: Date.now() }),
          { mode: 0o600 },
        );
      },
    });
    let pid: number | null = null;
    try {
      for (const until = Date.now() + 60_000; pid === null && Date.now() < until; ) {
        pid = (await a.json('GET', '/api/bridge/status')).body.pid;
        if (pid === null) await new Promise((r) => setTimeout(r, 100));
      }
      expect(pid).not.toBeNull();
      expect(isProcessAlive(pid!)).toBe(true);
    } finally {
      await a.stop();
    }
    expect(isProcessAlive(pid!)).toBe(false);
  });
});
