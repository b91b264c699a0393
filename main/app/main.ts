import path from 'node:path';
import { app, dialog, session, shell } from 'electron';
import { startSwitchboard, type RunningSwitchboard } from '../api/runtime.js';
import { appRoot } from '../infra/app-root.js';
import { appVersion } from '../infra/app-version.js';
import { installLastResortGuard } from '../infra/last-resort.js';
import { createLogger, type LogLevel } from '../infra/logger.js';
import { resolveHomes } from '../infra/paths.js';
import { createApiClient } from './api-client.js';
import { desktopPort, startupFailureAction } from './boot-rules.js';
import { registerIpc } from './ipc.js';
import { applyLaunchAtLogin } from './launch-at-login.js';
import { installCleanQuit, showNotice } from './lifecycle.js';
import { startsHidden } from './login-item.js';
import { guardSession, guardWebContents } from './security.js';
import { createHttpStatusSource } from './status-source.js';
import { TrayController } from './tray-controller.js';
import type { TrayActionId } from './tray-menu.js';
import { createAppTray, type AppTray } from './tray.js';
import { createUiPrefs } from './ui-prefs.js';
import { createDashboardWindow } from './window.js';

// Composition root of the desktop app: the same main process as `switchboard serve`, plus tray,
// window and notices. Logic lives in the pure modules beside this file; this only wires Electron.
const logger = createLogger((process.env.SWITCHBOARD_LOG_LEVEL as LogLevel | undefined) ?? 'info');

if (!app.requestSingleInstanceLock()) app.quit();
else void boot();

async function boot(): Promise<void> {
  await app.whenReady();
  const port = desktopPort(process.env);
  let running: RunningSwitchboard;
  try {
    // The API listens before any window exists, so the window never loads a dead address.
    running = await startSwitchboard({ homes: resolveHomes(process.env), port, logger, scanUsageAtStart: true, watchUsageLogs: true });
  } catch (err) {
    const action = startupFailureAction(err, port);
    if (action.kind === 'open-running') {
      await shell.openExternal(action.url);
      app.exit(0);
      return;
    }
    dialog.showErrorBox(action.title, action.body);
    app.exit(1);
    return;
  }
  const origin = running.url;
  installLastResortGuard(logger);
  guardSession(session.defaultSession);
  app.on('web-contents-created', (_event, contents) => guardWebContents(contents, origin));
  registerIpc(origin, appVersion());

  const window = createDashboardWindow(origin, path.join(appRoot(), 'dist', 'preload', 'index.cjs'), createUiPrefs());
  const api = createApiClient(origin);
  let tray: AppTray | undefined;
  const controller = new TrayController({
    api,
    source: createHttpStatusSource(api),
    events: running.services.ctx.events,
    render: (frame) => tray?.render(frame),
    notify: (notice) => showNotice(notice, () => window.show()),
    logger,
  });
  const onAction = (action: TrayActionId) => {
    if (action === 'open-window') window.show();
    else if (action === 'open-accounts') window.show('accounts');
    else if (action === 'open-providers') window.show('providers');
    else if (action === 'quit') app.quit();
    else void controller.perform(action);
  };
  try {
    tray = createAppTray(process.platform, onAction, (command) => void controller.run(command));
  } catch (err) {
    // Without a tray the window is the only way in: it opens, and closing it quits.
    logger.warn(`tray unavailable: ${err instanceof Error ? err.message : String(err)}`);
  }
  await controller.start();

  installCleanQuit(running, () => {
    controller.stop();
    tray?.destroy();
  }, logger);
  app.on('second-instance', () => window.show());
  app.on('activate', () => window.show());
  app.on('window-all-closed', () => {
    if (!tray) app.quit();
  });
  void syncLaunchAtLogin(running);

  const openedAtLogin = process.platform === 'darwin' && app.getLoginItemSettings().wasOpenedAtLogin;
  if (!tray || !startsHidden(process.argv, openedAtLogin)) window.show();
}

/** Applies `desktop.launch_at_login` now and whenever the desktop section of config.yaml changes. */
async function syncLaunchAtLogin(running: RunningSwitchboard): Promise<void> {
  const apply = async () => {
    try {
      const { config } = await running.services.ctx.appConfig.read();
      await applyLaunchAtLogin(config.desktop.launch_at_login, logger);
    } catch (err) {
      logger.warn(`launch at login not applied: ${err instanceof Error ? err.message : String(err)}`);
    }
  };
  running.services.ctx.events.on('config-changed', ({ section }) => {
    if (section === 'desktop') void apply();
  });
  await apply();
}
