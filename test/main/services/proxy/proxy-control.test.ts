import fs from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import YAML from 'yaml';
import { afterEach, describe, expect, it } from 'vitest';
import { ManualClock } from '../../../../main/infra/clock.js';
import { killTree } from '../../../../main/infra/kill-tree.js';
import { silentLogger } from '../../../../main/infra/logger.js';
import { createPaths } from '../../../../main/infra/paths.js';
import { isProcessAlive } from '../../../../main/infra/process-alive.js';
import { AppConfigStore } from '../../../../main/services/app-config/store.js';
import { AppEvents } from '../../../../main/services/events.js';
import { ProxyService } from '../../../../main/services/proxy/proxy-service.js';
import { prepareProxyHome, startOnHome, tempHome, type HomeApp } from '../../../fixtures/proxy-home.js';
import { waitDead } from '../../../fixtures/supervised.js';

const FAKE_BINARY = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../fixtures/fake-cliproxy.mjs');

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c().catch(() => undefined);
});

async function home() {
  const dirs = await tempHome();
  cleanups.push(() => fs.rm(dirs.root, { recursive: true, force: true }));
  return dirs;
}

async function run(dirs: { home: string; agentDir: string }, clock?: ManualClock): Promise<HomeApp> {
  const app = await startOnHome(dirs.home, dirs.agentDir, clock);
  cleanups.push(() => app.app.close());
  return app;
}

function killLater(pid: number) {
  cleanups.push(async () => {
    if (isProcessAlive(pid)) process.kill(pid, 'SIGKILL');
  });
}

describe('adoption after an app restart', () => {
  it('keeps the proxy running on quit when asked, and the next app run adopts and can stop it', async () => {
    const dirs = await home();
    const port = await prepareProxyHome(dirs.home, { appProxyExtra: '  keep_running_on_quit: true\n' });
    const first = await startOnHome(dirs.home, dirs.agentDir, new ManualClock(1_800_000_000_000));
    expect((await first.json('POST', '/api/proxy/proxy-start')).body.started).toBe(true);
    const { pid } = (await first.json('GET', '/api/proxy/proxy-status')).body;
    killLater(pid);
    await first.app.close();
    expect(isProcessAlive(pid)).toBe(true);

    const second = await run(dirs);
    expect(await second.json('GET', '/api/proxy/proxy-status')).toEqual({
      status: 200,
      body: { running: true, port, pid, sessionCount: 0, startedAt: 1_800_000_000_000 },
    });
    expect(await second.json('POST', '/api/proxy/proxy-start')).toEqual({ status: 200, body: { started: false, alreadyRunning: true, port } });
    expect(await second.json('POST', '/api/proxy/proxy-stop')).toEqual({ status: 200, body: { stopped: true, pid, sessionCount: 0 } });
    expect(await waitDead(pid)).toBe(true);
  });

  it('stops the proxy on quit by default', async () => {
    const dirs = await home();
    await prepareProxyHome(dirs.home);
    const app = await startOnHome(dirs.home, dirs.agentDir);
    await app.json('POST', '/api/proxy/proxy-start');
    const { pid } = (await app.json('GET', '/api/proxy/proxy-status')).body;
    killLater(pid);
    await app.app.close();
    expect(isProcessAlive(pid)).toBe(false);
    await expect(fs.access(path.join(dirs.home, 'proxy', 'proxy.json'))).rejects.toThrow();
  });
});

describe('external binary mode (proxy.binary_path)', () => {
  it('runs the binary with a translated config and WRITABLE_PATH = proxy/', async () => {
    const dirs = await home();
    const port = await prepareProxyHome(dirs.home, {
      appProxyExtra: `  binary_path: ${FAKE_BINARY}\n  binary_version: v6.9.8-0\n`,
      proxyExtra: 'request-retry: 3\nproviders_note: kept\nmodel_aliases: { sonnet: claude-sonnet-4-5 }\nrouting: { strategy: fill-first, cooldown_seconds: 5 }\n',
    });
    const app = await run(dirs);
    expect(await app.json('POST', '/api/proxy/proxy-start')).toEqual({ status: 200, body: { started: true, alreadyRunning: false, port } });
    const status = (await app.json('GET', '/api/proxy/proxy-status')).body;
    expect(status).toMatchObject({ running: true, port, sessionCount: 0 });
    killLater(status.pid);

    const started = JSON.parse(await fs.readFile(path.join(dirs.home, 'proxy', 'logs', 'fake-cliproxy-start.json'), 'utf8'));
    expect(started.writablePath).toBe(path.join(dirs.home, 'proxy'));
    const tokens = (await app.json('GET', '/api/settings/auth/tokens/raw')).body;
    expect(started.config).toMatchObject({
      host: '127.0.0.1',
      port,
      'api-keys': [tokens.apiKey.value],
      'remote-management': { 'allow-remote': false, 'secret-key': tokens.managementSecret.value },
      'auth-dir': path.join(dirs.home, 'proxy', 'auth'),
      'request-retry': 3,
      providers_note: 'kept',
      'openai-compatibility': [
        {
          name: 'openai',
          'base-url': 'http://127.0.0.1:9/v1',
          'api-key-entries': [{ 'api-key': 'sk-upstream-openai' }],
          models: [{ name: 'gpt-4o-mini', alias: 'gpt-4o-mini' }, { name: 'gpt-4o', alias: 'gpt-4o' }],
        },
      ],
      'claude-api-key': [
        { 'api-key': 'sk-ant-1', 'base-url': 'http://127.0.0.1:9', models: expect.any(Array) },
        { 'api-key': 'sk-ant-2', 'base-url': 'http://127.0.0.1:9', models: expect.any(Array) },
      ],
    });
    expect(started.config.server).toBeUndefined();
    expect(started.config.model_aliases).toBeUndefined();
    expect(started.config.routing).toEqual({ strategy: 'fill-first' });
    expect(started.config['error-logs-max-files']).toBe(100);
    expect((await fs.stat(path.join(dirs.home, 'proxy', 'cliproxy-config.yaml'))).mode & 0o777).toBe(0o600);

    const models = (await app.json('GET', '/api/proxy/models')).body;
    expect(models.totalCount).toBe(4);
    expect(Object.keys(models.byCategory).sort()).toEqual(['antigravity', 'openai', 'other']);
    expect(models.byCategory.other).toEqual([{ id: 'mystery-model', object: 'model', created: 0, owned_by: 'other' }]);

    const update = (await app.json('GET', '/api/proxy/update-check')).body;
    expect(update).toEqual({ hasUpdate: false, currentVersion: '6.9.8-0', latestVersion: '6.9.8-0', fromCache: false, checkedAt: null, error: expect.any(String) });

    expect((await app.json('POST', '/api/proxy/proxy-stop')).body).toEqual({ stopped: true, pid: status.pid, sessionCount: 0 });
    expect(isProcessAlive(status.pid)).toBe(false);
  });

  it('answers 500 naming the cause when the binary does not exist', async () => {
    const dirs = await home();
    await prepareProxyHome(dirs.home, { appProxyExtra: `  binary_path: ${path.join(dirs.root, 'no-such-binary')}\n` });
    const app = await run(dirs);
    const res = await app.json('POST', '/api/proxy/proxy-start');
    expect(res.status).toBe(500);
    expect(res.body.error).toBe('Failed to start proxy');
    expect(res.body.message).toContain('ENOENT');
  });

  it('SIGKILLs a binary that ignores SIGTERM after the (injected) grace period', async () => {
    const dirs = await home();
    await prepareProxyHome(dirs.home, { appProxyExtra: `  binary_path: ${FAKE_BINARY}\n`, proxyExtra: 'fake-ignore-sigterm: true\n' });
    const paths = createPaths({ configDir: dirs.home, agentDir: dirs.agentDir });
    const signals: string[] = [];
    const proxy = new ProxyService(
      { paths, clock: new ManualClock(), logger: silentLogger, events: new AppEvents(), appConfig: new AppConfigStore(paths.appConfig), env: process.env },
      {
        stopGraceMs: 300,
        readyPollMs: 20,
        killTree: async (pid, signal) => {
          signals.push(signal);
          await killTree(pid, signal);
        },
      },
    );
    const { port } = await proxy.control.start();
    const status = await proxy.control.status();
    expect(status).toMatchObject({ running: true, port });
    const pid = status.running ? status.pid : 0;
    killLater(pid);
    const t0 = performance.now();
    expect(await proxy.control.stop()).toEqual({ stopped: true, pid, sessionCount: 0 });
    expect(performance.now() - t0).toBeGreaterThanOrEqual(290);
    expect(signals).toEqual(['SIGTERM', 'SIGKILL']);
    expect(isProcessAlive(pid)).toBe(false);
    expect(YAML.parse(await fs.readFile(paths.proxyBinaryConfig, 'utf8'))['fake-ignore-sigterm']).toBe(true);
  });
});
