import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiClient } from '../../../main/app/api-client.js';
import type { DesktopNotice } from '../../../main/app/notifications.js';
import { createHttpStatusSource } from '../../../main/app/status-source.js';
import { TrayController, type TrayFrame } from '../../../main/app/tray-controller.js';
import { silentLogger } from '../../../main/infra/logger.js';
import { waitUntil } from '../../../main/infra/process-wait.js';
import { startTestApp, type TestApp } from '../../helpers/app.js';
import { prepareProxyHome } from '../../fixtures/proxy-home.js';

/**
 * The tray against the real app and the real proxy engine: the controller's reading of
 * supervisor events and status must match what the proxy area really sends.
 */
let app: TestApp;
let proxyPort: number;
let controller: TrayController;
const frames: TrayFrame[] = [];
const notices: DesktopNotice[] = [];

const proxyLine = () => {
  const item = frames.at(-1)!.menu[2]!;
  return item.type === 'normal' ? item.label : '';
};

beforeAll(async () => {
  app = await startTestApp({ before: async ({ home }) => void (proxyPort = await prepareProxyHome(home)) });
  // The tray's 5 s request bound is its own concern; here a start may take long on a busy machine.
  const api = createApiClient(app.url, { readMs: 120_000, actionMs: 120_000 });
  controller = new TrayController({
    api,
    source: createHttpStatusSource(api),
    events: app.services.ctx.events,
    render: (f) => frames.push(f),
    notify: (n) => notices.push(n),
    logger: silentLogger,
  });
  await controller.start();
});

afterAll(async () => {
  controller.stop();
  await app.json('POST', '/api/proxy/proxy-stop');
  await app.stop();
});

describe('tray with the real proxy', () => {
  it('Start proxy from the tray runs it; the menu and icon follow', async () => {
    expect(proxyLine()).toBe('Proxy stopped');
    await controller.perform('proxy-start');
    expect(proxyLine()).toBe(`Proxy running on port ${proxyPort} · 0 sessions`);
    expect(frames.at(-1)!.icon).toBe('running');
    expect(notices).toEqual([]);
  });

  it('an engine killed behind the supervisor is one "exited unexpectedly" notice and a failed line', async () => {
    const { pid } = (await app.json('GET', '/api/proxy/proxy-status')).body;
    process.kill(pid, 'SIGKILL');
    expect(await waitUntil(() => notices.length > 0, 30_000, 20)).toBe(true);
    await controller.refresh();
    expect(notices).toEqual([{ kind: 'proxy-exited', title: 'Proxy exited unexpectedly', body: expect.stringContaining('exited unexpectedly') }]);
    expect(proxyLine()).toMatch(/^Proxy failed: .*exited unexpectedly/);
    expect(frames.at(-1)!.icon).toBe('error');
  });

  it('a start refused because the port is taken is one "failed to start" notice naming the port', async () => {
    notices.length = 0;
    const blocker = net.createServer();
    await new Promise<void>((r) => blocker.listen(proxyPort, '127.0.0.1', r));
    try {
      await controller.perform('proxy-start');
    } finally {
      await new Promise((r) => blocker.close(r));
    }
    expect(notices).toEqual([
      { kind: 'proxy-start-failed', title: 'Proxy failed to start', body: expect.stringContaining(`port ${proxyPort} is already in use`) },
    ]);
    expect(proxyLine()).toBe(`Proxy failed: port ${proxyPort} is already in use by another process`);
    expect(frames.at(-1)!.menu[3]).toMatchObject({ label: 'Start proxy', enabled: true });
  });
});
