import { readFileSync } from 'node:fs';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { resourcePath } from '../../../main/infra/app-root.js';
import { appVersion } from '../../../main/infra/app-version.js';
import { OFFLINE_CONFIG_YAML } from '../../helpers/offline-config.js';

// The Electron binary cannot run here: main.ts is booted against a recording fake of the
// electron module (and an in-memory electron-store) with a real API on a free port.
vi.mock('electron', () => import('../../fixtures/fake-electron.js'));
vi.mock('electron-store', () => ({
  default: class {
    private data: Record<string, unknown> = {};
    get(key: string): unknown {
      return this.data[key];
    }
    set(values: Record<string, unknown>): void {
      Object.assign(this.data, values);
    }
  },
}));

type Fake = typeof import('../../fixtures/fake-electron.js');

const ENV_KEYS = ['SWITCHBOARD_HOME', 'SWITCHBOARD_AGENT_DIR', 'SWITCHBOARD_PORT', 'SWITCHBOARD_LOG_LEVEL', 'XDG_CONFIG_HOME'] as const;
const savedEnv = Object.fromEntries(ENV_KEYS.map((k) => [k, process.env[k]]));
const signalListeners = { SIGINT: process.listeners('SIGINT'), SIGTERM: process.listeners('SIGTERM') };
let root: string;
let electron: Fake;
let origin: string;

async function boot(): Promise<Fake> {
  const mod = (await import('electron')) as unknown as Fake;
  return mod;
}

beforeAll(async () => {
  root = await fs.mkdtemp(path.join(os.tmpdir(), 'switchboard-desktop-'));
  const home = path.join(root, 'home');
  await fs.mkdir(home, { recursive: true });
  await fs.writeFile(path.join(home, 'config.yaml'), `${OFFLINE_CONFIG_YAML}desktop:\n  launch_at_login: true\n`);
  Object.assign(process.env, {
    SWITCHBOARD_HOME: home,
    SWITCHBOARD_AGENT_DIR: path.join(root, 'agent'),
    SWITCHBOARD_PORT: '0',
    SWITCHBOARD_LOG_LEVEL: 'silent',
    XDG_CONFIG_HOME: path.join(root, 'xdg'),
  });
  electron = await boot();
  electron.app.isPackaged = true;
  await import('../../../main/app/main.js');
  await vi.waitFor(() => {
    expect(electron.fake.windows[0]?.loadedUrl).toBeDefined();
    expect(electron.fake.trays[0]?.menus.length).toBeGreaterThan(0);
  }, { timeout: 60_000 });
  origin = new URL(electron.fake.windows[0]!.loadedUrl!).origin;
});

afterAll(async () => {
  for (const key of ENV_KEYS) {
    if (savedEnv[key] === undefined) delete process.env[key];
    else process.env[key] = savedEnv[key];
  }
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    for (const l of process.listeners(signal)) if (!signalListeners[signal].includes(l)) process.off(signal, l);
  }
  await fs.rm(root, { recursive: true, force: true });
});

const trusted = (url = `${origin}/#/proxy`) => ({ senderFrame: { url, parent: null } });

describe('desktop main process (against a fake electron module)', () => {
  it('takes the single-instance lock, starts the API, then loads the window from it', async () => {
    const { log, windows } = electron.fake;
    expect(log[0]).toBe('requestSingleInstanceLock');
    expect(log.indexOf('BrowserWindow')).toBeGreaterThan(0);
    expect(windows[0]!.loadedUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/$/);
    const res = await fetch(`${origin}/api/openapi.json`);
    expect(res.status).toBe(200);
  });

  it('creates the window with the secure options, hidden until ready-to-show', () => {
    const win = electron.fake.windows[0]!;
    const prefs = win.options.webPreferences as Record<string, unknown>;
    expect(prefs).toMatchObject({ contextIsolation: true, sandbox: true, nodeIntegration: false, webSecurity: true });
    expect(String(prefs.preload)).toMatch(/dist[/\\]preload[/\\]index\.cjs$/);
    expect(win.options.show).toBe(false);
    expect(win.shown).toBe(0);
    win.emit('ready-to-show');
    expect(win.shown).toBe(1);
  });

  it('guards navigation, new windows and webviews of every web contents', () => {
    const contents = electron.fake.windows[0]!.webContents;
    const attempt = (event: string, url: string) => {
      let prevented = false;
      contents.emit(event, { preventDefault: () => (prevented = true) }, url);
      return prevented;
    };
    expect(attempt('will-navigate', 'https://evil.example/')).toBe(true);
    expect(attempt('will-redirect', 'http://localhost:1/')).toBe(true);
    expect(attempt('will-navigate', `${origin}/#/usage`)).toBe(false);
    expect(attempt('will-attach-webview', '')).toBe(true);
    expect(contents.openHandler!({ url: 'https://example.com/docs' })).toEqual({ action: 'deny' });
    expect(contents.openHandler!({ url: 'file:///etc/passwd' })).toEqual({ action: 'deny' });
    expect(electron.fake.opened).toEqual(['https://example.com/docs']);
  });

  it('denies every permission request and check', () => {
    const answers: boolean[] = [];
    electron.fake.permissionRequest!({}, 'media', (ok) => answers.push(ok));
    electron.fake.permissionRequest!({}, 'notifications', (ok) => answers.push(ok));
    expect(answers).toEqual([false, false]);
    expect(electron.fake.permissionCheck!({}, 'clipboard-read')).toBe(false);
  });

  it('answers exactly the two preload channels, for our page only', async () => {
    const { ipc, opened } = electron.fake;
    expect([...ipc.keys()].sort()).toEqual(['switchboard:open-external', 'switchboard:version']);
    expect(await ipc.get('switchboard:version')!(trusted())).toBe(appVersion());
    expect(await ipc.get('switchboard:version')!(trusted('https://evil.example/'))).toBe('');
    opened.length = 0;
    expect(await ipc.get('switchboard:open-external')!(trusted(), 'https://example.com/a')).toBe(true);
    expect(await ipc.get('switchboard:open-external')!(trusted(), 'http://example.com/a')).toBe(false);
    expect(await ipc.get('switchboard:open-external')!({ senderFrame: { url: `${origin}/`, parent: {} } }, 'https://example.com/b')).toBe(false);
    expect(opened).toEqual(['https://example.com/a']);
  });

  it('builds the tray from the API status, Linux style: menu only, Open window first', () => {
    const tray = electron.fake.trays[0]!;
    const menu = tray.menus.at(-1)!.template;
    expect(menu[0]).toMatchObject({ label: 'Open window', enabled: true });
    expect(menu.at(-1)).toMatchObject({ label: 'Quit Switchboard' });
    // Stopped once the proxy router answers; "unavailable" while that area is not mounted.
    expect(menu[2]).toMatchObject({ label: expect.stringMatching(/^Proxy (stopped|status unavailable)$/), enabled: false });
    expect(tray.tooltip.startsWith('Switchboard\n')).toBe(true);
    const icon = tray.images[0]!;
    expect(icon.template).toBe(false);
    expect(icon.representations.map((r) => r.scaleFactor)).toEqual([1, 2]);
    expect(icon.representations[0]!.buffer.equals(readFileSync(resourcePath('tray-stopped.png')))).toBe(true);
    expect(icon.representations[1]!.buffer.equals(readFileSync(resourcePath('tray-stopped@2x.png')))).toBe(true);
    expect(tray.listenerCount('click')).toBe(0);
  });

  it('Open window shows the window; a closed window is created again', () => {
    const { windows, trays } = electron.fake;
    const click = (label: string) => (trays[0]!.menus.at(-1)!.template.find((m) => m.label === label)!.click as () => void)();
    click('Open window');
    expect(windows[0]!.shown).toBe(2);
    windows[0]!.emit('close');
    windows[0]!.emit('closed');
    electron.app.emit('window-all-closed');
    expect(electron.fake.log).not.toContain('app.quit');
    click('Open window');
    expect(windows).toHaveLength(2);
    expect(windows[1]!.loadedUrl).toBe(`${origin}/`);
  });

  it('writes the XDG autostart entry from config.yaml and removes it when the setting is turned off', async () => {
    const entry = path.join(root, 'xdg', 'autostart', 'switchboard.desktop');
    await vi.waitFor(async () => expect(await fs.readFile(entry, 'utf8')).toContain(`Exec=${process.execPath} --hidden`));
    const { config, mtime } = (await (await fetch(`${origin}/api/config`)).json()) as { config: { desktop: Record<string, unknown> }; mtime: number };
    config.desktop.launch_at_login = false;
    const put = await fetch(`${origin}/api/config`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ config, expectedMtime: mtime }),
    });
    expect(put.status).toBe(200);
    await vi.waitFor(async () => expect(await fs.stat(entry).catch(() => null)).toBeNull());
  });

  it('Quit closes the API and services first, then quits', async () => {
    const { log, trays } = electron.fake;
    (trays[0]!.menus.at(-1)!.template.find((m) => m.label === 'Quit Switchboard')!.click as () => void)();
    await vi.waitFor(() => expect(log).toContain('quit-completed'), { timeout: 60_000 });
    expect(log).toContain('tray.destroy');
    await expect(fetch(`${origin}/api/openapi.json`)).rejects.toThrow();
  });
});

describe('a second instance', () => {
  it('quits at once without starting anything', async () => {
    // A fresh main.ts module; the mocked electron module (and its recording) is shared.
    vi.resetModules();
    const { fake } = await boot();
    fake.lockGranted = false;
    const [logStart, windowsBefore, traysBefore] = [fake.log.length, fake.windows.length, fake.trays.length];
    await import('../../../main/app/main.js');
    await vi.waitFor(() => expect(fake.log.slice(logStart)).toContain('quit-completed'), { timeout: 30_000 });
    expect(fake.log.slice(logStart)).toEqual(['requestSingleInstanceLock', 'app.quit', 'quit-completed']);
    expect([fake.windows.length, fake.trays.length]).toEqual([windowsBefore, traysBefore]);
  });
});
