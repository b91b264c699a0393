import fs from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { findFreePort } from '../../../../main/infra/port-probe.js';
import { isProcessAlive } from '../../../../main/infra/process-alive.js';
import { waitUntil } from '../../../../main/infra/process-wait.js';
import { BridgeService, type BridgeServiceOptions } from '../../../../main/services/bridge/bridge-service.js';
import { BridgeError } from '../../../../main/services/bridge/errors.js';
import { bridgeHarness, type BridgeHarness } from '../../../fixtures/bridge/service.js';
import { makeEditorDb, makeJwt, MACHINE_ID_HEX, MACHINE_ID_UUID, PLAIN_TOKEN, requireSqlite3 } from '../../../fixtures/bridge/editor-db.js';

const STUB = path.join(path.dirname(fileURLToPath(import.meta.url)), '../../../fixtures/bridge/stub-daemon.mjs');
const HOUR = 60 * 60 * 1000;

beforeAll(() => {
  requireSqlite3();
});

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

async function harness(configYaml?: string, env: NodeJS.ProcessEnv = {}, options: BridgeServiceOptions = {}): Promise<BridgeHarness> {
  const h = await bridgeHarness(options, { configYaml, env });
  cleanups.push(() => h.cleanup());
  return h;
}

async function error(p: Promise<unknown>): Promise<BridgeError> {
  const err = await p.then(() => null, (e: unknown) => e);
  expect(err).toBeInstanceOf(BridgeError);
  return err as BridgeError;
}

describe('bridge service: credentials', () => {
  it('imports manually with the 50/51 character rule and stores the machine id normalised', async () => {
    const h = await harness();
    expect((await error(h.bridge.importManual('t'.repeat(50), MACHINE_ID_HEX))).code).toBe('invalid-credentials');
    await expect(fs.access(h.ctx.paths.bridgeCredentials)).rejects.toThrow(); // nothing half-written
    expect((await error(h.bridge.importManual('t'.repeat(51), 'xyz'))).code).toBe('invalid-credentials');
    await h.bridge.importManual('t'.repeat(51), MACHINE_ID_UUID);
    const stored = JSON.parse(await fs.readFile(h.ctx.paths.bridgeCredentials, 'utf8'));
    expect(stored).toEqual({ accessToken: 't'.repeat(51), machineId: MACHINE_ID_HEX, authMethod: 'manual', importedAt: h.clock.now() });
  });

  it('keeps the directory at 0700 and the file at 0600, also when they existed wider', async () => {
    const h = await harness();
    await fs.mkdir(h.ctx.paths.bridgeDir, { recursive: true, mode: 0o755 });
    await fs.chmod(h.ctx.paths.bridgeDir, 0o755);
    await fs.writeFile(h.ctx.paths.bridgeCredentials, '{}', { mode: 0o644 });
    await h.bridge.importManual(PLAIN_TOKEN, MACHINE_ID_HEX);
    expect((await fs.stat(h.ctx.paths.bridgeDir)).mode & 0o777).toBe(0o700);
    expect((await fs.stat(h.ctx.paths.bridgeCredentials)).mode & 0o777).toBe(0o600);
    const token = await h.bridge.credentials.daemonToken();
    expect(token).toMatch(/^sb-bridge-[0-9a-f]{48}$/);
    expect(await h.bridge.credentials.daemonToken()).toBe(token); // created once, then reused
    expect((await fs.stat(h.ctx.paths.bridgeToken)).mode & 0o777).toBe(0o600);
  });

  it('auto-detects from the editor database and records the method', async () => {
    const h0 = await harness();
    const db = makeEditorDb(path.join(h0.root, 'editor'), { 'cursorAuth/accessToken': PLAIN_TOKEN, 'storage.serviceMachineId': MACHINE_ID_UUID });
    const h = await harness(undefined, { SWITCHBOARD_BRIDGE_DB: db });
    const creds = await h.bridge.autoDetect();
    expect(creds).toEqual({ accessToken: PLAIN_TOKEN, machineId: MACHINE_ID_HEX, authMethod: 'auto-detect', importedAt: h.clock.now() });
    expect((await h.bridge.status()).authMethod).toBe('auto-detect');
  });

  it('auto-detect: missing and malformed keys are 400 invalid-credentials, and nothing is saved', async () => {
    const h0 = await harness();
    const cases: Array<Record<string, string>> = [
      { 'storage.serviceMachineId': MACHINE_ID_HEX },
      { 'cursorAuth/accessToken': PLAIN_TOKEN },
      { 'cursorAuth/accessToken': 'short-token', 'storage.serviceMachineId': MACHINE_ID_HEX },
      { 'cursorAuth/accessToken': PLAIN_TOKEN, 'telemetry.machineId': 'f'.repeat(64) },
    ];
    for (const [i, rows] of cases.entries()) {
      const db = makeEditorDb(path.join(h0.root, `bad-${i}`), rows);
      const h = await harness(undefined, { SWITCHBOARD_BRIDGE_DB: db });
      expect((await error(h.bridge.autoDetect())).code).toBe('invalid-credentials');
      await expect(fs.access(h.ctx.paths.bridgeCredentials)).rejects.toThrow();
    }
  });
});

describe('bridge service: status and expiry on the injected clock', () => {
  it('answers exactly the documented fields', async () => {
    const h = await harness();
    expect(await h.bridge.status()).toEqual({
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
    });
  });

  it('expires a plain token 24 hours after its import', async () => {
    const h = await harness();
    const importedAt = h.clock.now();
    await h.bridge.importManual(PLAIN_TOKEN, MACHINE_ID_HEX);
    h.clock.advance(23.5 * HOUR);
    expect(await h.bridge.status()).toMatchObject({ authenticated: true, tokenExpired: false, tokenAgeHours: 23.5, expiresAt: importedAt + 24 * HOUR });
    h.clock.advance(0.5 * HOUR);
    expect(await h.bridge.status()).toMatchObject({ authenticated: false, tokenExpired: true, tokenAgeHours: 24 });
  });

  it('expires a JWT at its exp claim, even before 24 hours', async () => {
    const h = await harness();
    const exp = Math.floor(h.clock.now() / 1000) + 2 * 3600;
    await h.bridge.importManual(makeJwt({ exp, sub: 'user' }), MACHINE_ID_HEX);
    expect(await h.bridge.status()).toMatchObject({ authenticated: true, expiresAt: exp * 1000 });
    h.clock.advance(2 * HOUR);
    expect(await h.bridge.status()).toMatchObject({ authenticated: false, tokenExpired: true });
  });
});

describe('bridge service: settings and models', () => {
  it('updates only the given keys and keeps comments of config.yaml', async () => {
    const h = await harness('# top comment\ncursor:\n  # keep me\n  port: 20130\n');
    const cursor = await h.bridge.updateSettings({ enabled: true, opus_model: 'gpt-5' });
    expect(cursor).toMatchObject({ enabled: true, port: 20130, opus_model: 'gpt-5', ghost_mode: true });
    const text = await fs.readFile(h.ctx.paths.appConfig, 'utf8');
    expect(text).toContain('# top comment');
    expect(text).toContain('# keep me');
  });

  it('lists the built-in models with the configured default while the daemon is stopped', async () => {
    const h = await harness('cursor:\n  model: gpt-5\n');
    const list = await h.bridge.models();
    expect(list.current).toBe('gpt-5');
    expect(list.models.filter((m) => m.isDefault).map((m) => m.id)).toEqual(['gpt-5']);
    expect(list.models[0]).toEqual({ id: 'claude-4.5-sonnet', name: 'Claude 4.5 Sonnet', provider: 'anthropic', isDefault: false });
    expect(list.models.find((m) => m.id === 'gpt-5')).toEqual({ id: 'gpt-5', name: 'GPT-5', provider: 'openai', isDefault: true });
  });
});

describe('bridge service: app start and quit', () => {
  async function autoStartHarness(extra = '') {
    const port = await findFreePort();
    const launch: BridgeServiceOptions['launch'] = (s) => ({ command: process.execPath, args: [STUB, '--config-dir', 'x', '--port', String(s.port)] });
    const h = await harness(`cursor:\n  enabled: true\n  auto_start: true\n  port: ${port}\n${extra}`, {}, { launch, readyPollMs: 50 });
    return { h, port, launch };
  }

  it('auto-starts the daemon when enabled with valid credentials, and stops it on quit', async () => {
    const { h } = await autoStartHarness();
    await h.bridge.importManual(PLAIN_TOKEN, MACHINE_ID_HEX);
    expect(await h.bridge.startup()).toBe('auto-starting');
    expect(await waitUntil(async () => (await h.bridge.status()).daemonRunning, 5_000, 25)).toBe(true);
    const { pid } = await h.bridge.status();
    await h.bridge.shutdown(false);
    expect(isProcessAlive(pid!)).toBe(false);
  });

  it('leaves the daemon running on quit with keep-running, and the next start adopts it', async () => {
    const { h, launch } = await autoStartHarness();
    await h.bridge.importManual(PLAIN_TOKEN, MACHINE_ID_HEX);
    const { pid } = await h.bridge.startDaemon();
    cleanups.push(async () => void (isProcessAlive(pid) && process.kill(pid, 'SIGKILL')));
    await h.bridge.shutdown(true);
    expect(isProcessAlive(pid)).toBe(true);
    const next = new BridgeService(h.ctx, { launch });
    cleanups.push(() => next.shutdown(false));
    expect(await next.startup()).toBe('adopted');
    expect(await next.status()).toMatchObject({ daemonRunning: true, pid });
    expect(await next.stopDaemon()).toEqual({ stopped: true, pid });
  });

  it('does not auto-start with expired credentials or when auto_start is off', async () => {
    const { h } = await autoStartHarness();
    await h.bridge.importManual(PLAIN_TOKEN, MACHINE_ID_HEX);
    h.clock.advance(25 * HOUR);
    expect(await h.bridge.startup()).toBe('skipped');
    const off = await harness('cursor:\n  enabled: true\n  auto_start: false\n');
    await off.bridge.importManual(PLAIN_TOKEN, MACHINE_ID_HEX);
    expect(await off.bridge.startup()).toBe('skipped');
    expect(h.events).toEqual([]);
    expect(off.events).toEqual([]);
  });
});
