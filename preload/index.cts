// The window's only bridge to main: a frozen object with a version and a checked link opener.
// Data never travels here; the dashboard talks HTTP to the API like any other client.
// A sandboxed preload is a plain script with a limited `require` (electron's renderer modules
// only): it imports nothing else, and is written without import/export so the compiled file is
// just these lines (no `exports` bookkeeping).
const electron = require('electron') as typeof import('electron');

const api = Object.freeze({
  version: (): Promise<string> => electron.ipcRenderer.invoke('switchboard:version'),
  // main opens the link only for an https URL asked for by our own page (main/app/ipc.ts).
  openExternal: (url: string): Promise<boolean> => electron.ipcRenderer.invoke('switchboard:open-external', String(url)),
});

electron.contextBridge.exposeInMainWorld('switchboard', api);
