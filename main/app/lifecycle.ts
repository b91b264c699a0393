import { app, Notification } from 'electron';
import type { RunningSwitchboard } from '../api/runtime.js';
import type { Logger } from '../infra/logger.js';
import type { DesktopNotice } from './notifications.js';

/** Shows a notice decided by notifications.ts; a click opens the window. */
export function showNotice(notice: DesktopNotice, openWindow: () => void): void {
  if (!Notification.isSupported()) return;
  const shown = new Notification({ title: notice.title, body: notice.body, silent: notice.kind === 'anomaly' });
  shown.on('click', openWindow);
  shown.show();
}

/**
 * Quit waits for the API and services to close: children are stopped unless
 * `proxy.keep_running_on_quit` says otherwise (stopServices applies that policy).
 */
export function installCleanQuit(running: RunningSwitchboard, beforeClose: () => void, logger: Logger): void {
  let closed = false;
  let closing = false;
  app.on('before-quit', (event) => {
    if (closed) return;
    event.preventDefault();
    if (closing) return;
    closing = true;
    beforeClose();
    void running
      .close()
      .catch((err: unknown) => logger.error(`shutdown: ${err instanceof Error ? err.message : String(err)}`))
      .finally(() => {
        closed = true;
        app.quit();
      });
  });
  for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => app.quit());
}
