import { errorMessage } from '../../infra/file-stat.js';
import type { ProxyControl } from './proxy-control.js';

export interface UpstreamsReload {
  running: boolean;
  restarted: boolean;
  error?: string;
}

/**
 * The engine reads its upstreams when it starts: after a change they need, start it, or restart
 * it when it runs (requests in flight at that moment fail). A failure is reported, never thrown:
 * the change itself is saved.
 */
export async function reloadUpstreams(control: ProxyControl, options: { startWhenStopped: boolean }): Promise<UpstreamsReload> {
  const wasRunning = control.isRunning();
  if (!wasRunning && !options.startWhenStopped) return { running: false, restarted: false };
  try {
    if (wasRunning) await control.stop();
    await control.start();
    return { running: true, restarted: wasRunning };
  } catch (err) {
    return { running: control.isRunning(), restarted: false, error: errorMessage(err) };
  }
}
