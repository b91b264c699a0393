import type { TrayIconState } from './tray-menu.js';

/**
 * How the tray reacts per platform (users of this category ask for "left-click opens the window"
 * on Windows; macOS convention is a click that opens the menu; Linux AppIndicator trays deliver no
 * click events at all, so there the menu is the only way in and "Open window" comes first).
 */
export interface TrayClickPlan {
  /** Set the menu with tray.setContextMenu (Linux needs it re-set on every change). */
  attachContextMenu: boolean;
  /** What a left click does beyond what the OS does with the attached menu. */
  leftClick: 'open-window' | 'none';
  /** What a double click does (Windows sends click twice; opening twice is harmless). */
  doubleClick: 'open-window' | 'none';
}

export function trayClickPlan(platform: NodeJS.Platform): TrayClickPlan {
  switch (platform) {
    case 'win32':
      // Right click shows the attached menu; left click is ours.
      return { attachContextMenu: true, leftClick: 'open-window', doubleClick: 'open-window' };
    case 'darwin':
      // With a context menu attached macOS opens it on click; a handler would fight it.
      return { attachContextMenu: true, leftClick: 'none', doubleClick: 'none' };
    default:
      return { attachContextMenu: true, leftClick: 'none', doubleClick: 'none' };
  }
}

/**
 * The icon file under resources/ for a state. macOS gets template images (black + alpha, the
 * system tints them for light and dark menu bars); each has an @2x twin for HiDPI.
 */
export function trayIconFile(platform: NodeJS.Platform, state: TrayIconState): string {
  return platform === 'darwin' ? `tray-${state}Template.png` : `tray-${state}.png`;
}

export interface TrayIconSource {
  /** File names under resources/ per scale factor. */
  files: { 1: string; 2: string };
  template: boolean;
}

/**
 * What to load for a state. tray.ts reads the bytes itself (fs reads through app.asar) instead of
 * handing nativeImage a path inside the archive, which some platforms fail to load.
 */
export function trayIconSource(platform: NodeJS.Platform, state: TrayIconState): TrayIconSource {
  const file = trayIconFile(platform, state);
  return { files: { 1: file, 2: file.replace(/\.png$/, '@2x.png') }, template: platform === 'darwin' };
}
