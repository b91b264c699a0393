import { ipcMain, shell, type IpcMainInvokeEvent } from 'electron';
import { isTrustedSender } from './guards.js';
import { externalUrlToOpen, IPC_CHANNELS } from './ipc-rules.js';

/** Answers the preload's two channels; both check that the caller is our page in its top frame. */
export function registerIpc(origin: string, version: string): void {
  const fromUs = (event: IpcMainInvokeEvent) => event.senderFrame?.parent === null && isTrustedSender(event.senderFrame.url, origin);
  ipcMain.handle(IPC_CHANNELS.version, (event) => (fromUs(event) ? version : ''));
  ipcMain.handle(IPC_CHANNELS.openExternal, async (event, url: unknown) => {
    const target = fromUs(event) ? externalUrlToOpen(url, event.senderFrame?.url, origin) : undefined;
    if (!target) return false;
    await shell.openExternal(target);
    return true;
  });
}
