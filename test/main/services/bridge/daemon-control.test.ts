import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs/promises';
import http from 'node:http';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeAll, afterAll, describe, expect, it } from 'vitest';
import { findFreePort } from '../../../../main/infra/port-probe.js';
import { isProcessAlive } from '../../../../main/infra/process-alive.js';
import { BridgeService, type BridgeServiceOptions } from '../../../../main/services/bridge/bridge-service.js';
import { daemonLaunchSpec } from '../../../../main/services/bridge/daemon-control.js';
import { BridgeError } from '../../../../main/services/bridge/errors.js';
import { bridgeHarness, type BridgeHarness } from '../../../fixtures/bridge/service.js';
import { MACHINE_ID_HEX, PLAIN_TOKEN } from '../../../fixtures/bridge/editor-db.js';
import { startFakeUpstream, type FakeUpstream } from '../../../fixtures/bridge/fake-upstream.js';

const STUB = path.join(path.dirname(fileURLToPath(import.meta.url)), '../../../fixtures/bridge/stub-daemon.mjs');

let upstream: FakeUpstream;
beforeAll(async () => {
  upstream = await startFakeUpstream();
});
afterAll(() => upstream.close());

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

async function harness(options: BridgeServiceOptions = {}, cursor: Record<string, unknown> = {}): Promise<BridgeHarness & { port: number }> {
  const port = await findFreePort();
  const yaml = Object.entries({ enabled: true, port, upstream_url: upstream.url, ...cursor })
    .map(([k, v]) => `  ${k}: ${JSON.stringify(v)}`)
    .join('\n');
  const h = await bridgeHarness({ readyPollMs: 50, ...options }, { configYaml: `# my settings\ncursor:\n${yaml}\n` });
  cleanups.push(() => h.cleanup());
  await h.bridge.importManual(PLAIN_TOKEN, MACHINE_ID_HEX);
  return { ...h, port };
}

const stub = (mode: string): BridgeServiceOptions['launch'] => (settings) => ({
  command: process.execPath,
  args: [STUB, '--config-dir', 'x', '--port', String(settings.port)],
  env: { STUB_MODE: mode },
});

async function error(p: Promise<unknown>): Promise<BridgeError> {
  const err = await p.then(() => null, (e: unknown) => e);
  expect(err).toBeInstanceOf(BridgeError);
  return err as BridgeError;
}

/** An unrelated long-lived process (a pid a stale file could point at). */
function bystander(): ChildProcess {
  const child = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore' });
  cleanups.push(async () => {
    child.kill('SIGKILL');
  });
  return child;
}

describe('bridge daemon control: the real daemon process', () => {
  it('starts, answers through the pid it recorded, and stops', async () => {
    const h = await harness();
    const started = await h.bridge.startDaemon();
    expect(started).toMatchObject({ port: h.port, alreadyRunning: false });
    expect(isProcessAlive(started.pid)).toBe(true);
    // decisions §0: daemon.pid holds the bare pid (`kill $(cat daemon.pid)` works); the record sits beside it.
    expect(await fs.readFile(h.ctx.paths.bridgePid, 'utf8')).toBe(`${started.pid}\n`);
    expect((await fs.stat(h.ctx.paths.bridgePid)).mode & 0o777).toBe(0o600);
    const record = JSON.parse(await fs.readFile(h.ctx.paths.bridgeRecord, 'utf8'));
    expect(record).toMatchObject({ pid: started.pid, port: h.port });
    expect(record.argv.join(' ')).toContain('bridge-daemon/main');
    const status = await h.bridge.status();
    expect(status).toMatchObject({ daemonRunning: true, pid: started.pid, port: h.port, enabled: true, authenticated: true });
    // A real request through the child process, with the daemon token from its 0600 file.
    const token = (await fs.readFile(h.ctx.paths.bridgeToken, 'utf8')).trim();
    expect((await fs.stat(h.ctx.paths.bridgeToken)).mode & 0o777).toBe(0o600);
    const res = await fetch(`http://127.0.0.1:${h.port}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'gpt-5', messages: [{ role: 'user', content: 'hi' }] }),
    });
    expect(res.status).toBe(200);
    expect(upstream.requests.at(-1)!.headers['x-machine-id']).toBe(MACHINE_ID_HEX);
    expect((await fetch(`http://127.0.0.1:${h.port}/v1/models`)).status).toBe(401);
    expect(await h.bridge.startDaemon()).toEqual({ pid: started.pid, port: h.port, alreadyRunning: true });

    expect(await h.bridge.stopDaemon()).toEqual({ stopped: true, pid: started.pid });
    expect(isProcessAlive(started.pid)).toBe(false);
    await expect(fs.access(h.ctx.paths.bridgePid)).rejects.toThrow();
    await expect(fs.access(h.ctx.paths.bridgeRecord)).rejects.toThrow();
    expect(await h.bridge.stopDaemon()).toEqual({ stopped: false });
    expect(h.events.map((e) => e.state)).toEqual(['starting', 'starting', 'starting', 'running', 'stopping', 'stopped']);
    expect(h.events[3]).toEqual({ state: 'running', running: true, port: h.port, pid: started.pid });
  });

  it('lets a second service instance (the CLI) adopt and stop a daemon it did not start', async () => {
    const h = await harness();
    const { pid } = await h.bridge.startDaemon();
    const other = new BridgeService(h.ctx); // what `switchboard bridge stop` builds in its own process
    expect(await other.status()).toMatchObject({ daemonRunning: true, pid });
    expect(await other.stopDaemon()).toEqual({ stopped: true, pid });
    expect(isProcessAlive(pid)).toBe(false);
  });

  it('adopts a daemon recorded in the old format (JSON in daemon.pid) once, and rewrites it as pid + record', async () => {
    const h = await harness();
    const { pid } = await h.bridge.startDaemon();
    const record = await fs.readFile(h.ctx.paths.bridgeRecord, 'utf8');
    await fs.rm(h.ctx.paths.bridgeRecord);
    await fs.writeFile(h.ctx.paths.bridgePid, record); // what an earlier version left
    const other = new BridgeService(h.ctx); // a restarted app, or `switchboard bridge status`
    expect(await other.status()).toMatchObject({ daemonRunning: true, pid });
    expect(await fs.readFile(h.ctx.paths.bridgePid, 'utf8')).toBe(`${pid}\n`);
    expect(JSON.parse(await fs.readFile(h.ctx.paths.bridgeRecord, 'utf8'))).toEqual(JSON.parse(record));
    expect(await other.stopDaemon()).toEqual({ stopped: true, pid });
    expect(isProcessAlive(pid)).toBe(false);
    await expect(fs.access(h.ctx.paths.bridgePid)).rejects.toThrow();
    await expect(fs.access(h.ctx.paths.bridgeRecord)).rejects.toThrow();
  });

  it('launches the entry with --config-dir and --port and passes no secret on the command line', () => {
    const spec = daemonLaunchSpec('/cfg', {
      enabled: true, port: 20129, auto_start: false, ghost_mode: true, model: 'm', opus_model: '', sonnet_model: '', haiku_model: '', upstream_url: 'https://u',
    });
    expect(spec.args.slice(-4)).toEqual(['--config-dir', '/cfg', '--port', '20129']);
    expect(JSON.parse(spec.env!.SWITCHBOARD_BRIDGE_OPTIONS!)).toEqual({ upstreamUrl: 'https://u', ghostMode: true, model: 'm', opus: '', sonnet: '', haiku: '' });
  });
});

describe('bridge daemon control: faults', () => {
  it('gives up after the (injected) start timeout when the daemon never becomes healthy', async () => {
    const h = await harness({ launch: stub('never-healthy'), readyTimeoutMs: 800, readyPollMs: 100 });
    const began = performance.now();
    const err = await error(h.bridge.startDaemon());
    expect(err.code).toBe('start-failed');
    expect(err.detail).toMatch(/did not answer its health check within 800 ms/);
    // well before the default bound (READY_TIMEOUT_MS, 30 s), however busy the machine
    expect(performance.now() - began).toBeLessThan(25_000);
    expect((await h.bridge.status()).daemonRunning).toBe(false);
    expect(h.events.at(-1)).toMatchObject({ state: 'failed', running: false });
    await expect(fs.access(h.ctx.paths.bridgePid)).rejects.toThrow();
    // The port is free again: the unhealthy child was killed, not left behind.
    const probe = await fetch(`http://127.0.0.1:${h.port}/health`).then(() => 'answered', () => 'refused');
    expect(probe).toBe('refused');
  });

  it('sends SIGKILL after the (injected) grace period to a daemon that ignores SIGTERM', async () => {
    const h = await harness({ launch: stub('ignore-sigterm'), stopGraceMs: 400 });
    const { pid } = await h.bridge.startDaemon();
    const began = performance.now();
    expect(await h.bridge.stopDaemon()).toEqual({ stopped: true, pid });
    expect(performance.now() - began).toBeGreaterThanOrEqual(390);
    expect(isProcessAlive(pid)).toBe(false);
    expect(await fs.readFile(h.ctx.paths.bridgeLog, 'utf8')).toContain('ignoring SIGTERM');
  });

  it('never kills an unrelated live process named by a stale pid file', async () => {
    const h = await harness();
    const other = bystander();
    await new Promise((r) => other.once('spawn', r));
    const pid = other.pid!;
    // Same argv as recorded → only the health identity is missing; a different argv → both are.
    for (const argv of [[process.execPath, '-e', 'setInterval(() => {}, 1000)'], [process.execPath, 'main/engines/bridge-daemon/main.ts']]) {
      await fs.mkdir(path.dirname(h.ctx.paths.bridgePid), { recursive: true });
      await fs.writeFile(h.ctx.paths.bridgePid, JSON.stringify({ name: 'bridge', pid, port: h.port, startedAt: 1, argv }));
      expect(await h.bridge.stopDaemon()).toEqual({ stopped: false });
      expect(isProcessAlive(pid)).toBe(true);
      await expect(fs.access(h.ctx.paths.bridgePid)).rejects.toThrow(); // the stale file is forgotten
    }
  });

  it('does not adopt a pid whose port answers /health as some other service', async () => {
    const h = await harness();
    const other = bystander();
    await new Promise((r) => other.once('spawn', r));
    const foreign = http.createServer((_req, res) => res.end(JSON.stringify({ ok: true, service: 'something-else' })));
    await new Promise<void>((r) => foreign.listen(h.port, '127.0.0.1', r));
    cleanups.push(() => new Promise((r) => foreign.close(() => r())));
    await fs.mkdir(path.dirname(h.ctx.paths.bridgePid), { recursive: true });
    await fs.writeFile(
      h.ctx.paths.bridgePid,
      JSON.stringify({ name: 'bridge', pid: other.pid, port: h.port, startedAt: 1, argv: [process.execPath, '-e', 'setInterval(() => {}, 1000)'] }),
    );
    expect((await h.bridge.status()).daemonRunning).toBe(false);
    expect(await h.bridge.stopDaemon()).toEqual({ stopped: false });
    expect(isProcessAlive(other.pid!)).toBe(true);
  });

  it('refuses to start when disabled, without credentials, or with expired credentials', async () => {
    const off = await harness({ launch: stub('healthy') }, { enabled: false });
    expect((await error(off.bridge.startDaemon())).code).toBe('disabled');
    const none = await harness({ launch: stub('healthy') });
    await fs.rm(none.ctx.paths.bridgeCredentials);
    expect((await error(none.bridge.startDaemon())).code).toBe('credentials-missing');
    const old = await harness({ launch: stub('healthy') });
    old.clock.advance(24 * 60 * 60 * 1000);
    expect((await error(old.bridge.startDaemon())).code).toBe('credentials-expired');
    expect(old.events).toEqual([]);
  });
});
