import type { BrowserWindowConstructorOptions } from 'electron';

/**
 * The dashboard window's options as data (decisions §7, style habit 11). Data goes over HTTP, so
 * the page gets no Node, no remote content and only the preload's frozen object.
 */
export interface WindowOptionsInput {
  preloadPath: string;
  dark: boolean;
  bounds?: WindowBounds;
}

export interface WindowBounds {
  x?: number;
  y?: number;
  width: number;
  height: number;
}

export const DEFAULT_SIZE = { width: 1200, height: 800 } as const;
export const MIN_SIZE = { width: 880, height: 600 } as const;

/** Painted before the first frame so the window never flashes white in dark mode (or black in light). */
export const BACKGROUND = { light: '#ffffff', dark: '#16181d' } as const;

export function windowOptions(input: WindowOptionsInput): BrowserWindowConstructorOptions {
  const bounds = input.bounds ?? DEFAULT_SIZE;
  return {
    ...bounds,
    minWidth: MIN_SIZE.width,
    minHeight: MIN_SIZE.height,
    title: 'Switchboard',
    // Shown on ready-to-show, once there is something to paint.
    show: false,
    backgroundColor: input.dark ? BACKGROUND.dark : BACKGROUND.light,
    autoHideMenuBar: true,
    webPreferences: {
      preload: input.preloadPath,
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      nodeIntegrationInSubFrames: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      webviewTag: false,
      navigateOnDragDrop: false,
      safeDialogs: true,
      spellcheck: false,
    },
  };
}
