// The window's only bridge to main: a frozen object with a version and a checked link opener.
// Data never travels here; the dashboard talks HTTP to the API like any other client.
import { contextBridge, ipcRenderer } from 'electron';

const api = Object.freeze({
  version: (): Promise<string> => ipcRenderer.invoke('switchboard:version'),
  openExternal: (url: string): Promise<boolean> => ipcRenderer.invoke('switchboard:open-external', String(url)),
});

contextBridge.exposeInMainWorld('switchboard', api);
