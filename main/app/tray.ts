import { Menu, nativeImage, Tray } from 'electron';
import { resourcePath } from '../infra/app-root.js';
import type { TrayFrame } from './tray-controller.js';
import type { TrayActionId, TrayIconState } from './tray-menu.js';
import { trayClickPlan, trayIconFile } from './tray-platform.js';
import { toMenuTemplate } from './tray-template.js';

export interface AppTray {
  render(frame: TrayFrame): void;
  destroy(): void;
}

/** The Electron side of the tray: icon, click mapping per platform, menu re-set on every frame. */
export function createAppTray(platform: NodeJS.Platform, onAction: (action: TrayActionId) => void): AppTray {
  const icon = (state: TrayIconState) => nativeImage.createFromPath(resourcePath(trayIconFile(platform, state)));
  const tray = new Tray(icon('stopped'));
  const plan = trayClickPlan(platform);
  if (plan.leftClick === 'open-window') tray.on('click', () => onAction('open-window'));
  if (plan.doubleClick === 'open-window') tray.on('double-click', () => onAction('open-window'));
  let shownIcon: TrayIconState = 'stopped';
  return {
    render(frame) {
      // Linux trays show a stale or blank menu unless it is set again after every change.
      const menu = Menu.buildFromTemplate(toMenuTemplate(frame.menu, onAction));
      if (plan.attachContextMenu) tray.setContextMenu(menu);
      tray.setToolTip(frame.tooltip);
      if (frame.icon !== shownIcon) {
        tray.setImage(icon(frame.icon));
        shownIcon = frame.icon;
      }
    },
    destroy: () => tray.destroy(),
  };
}
