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
 * system tints them for light and dark menu bars); nativeImage picks the @2x file beside each.
 */
export function trayIconFile(platform: NodeJS.Platform, state: TrayIconState): string {
  return platform === 'darwin' ? `tray-${state}Template.png` : `tray-${state}.png`;
}
