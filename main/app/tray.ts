import fs from 'node:fs';
import { Menu, nativeImage, Tray, type NativeImage } from 'electron';
import { resourcePath } from '../infra/app-root.js';
import type { TrayFrame } from './tray-controller.js';
import type { TrayActionId, TrayCommand, TrayIconState } from './tray-menu.js';
import { trayClickPlan, trayIconSource } from './tray-platform.js';
import { toMenuTemplate } from './tray-template.js';

export interface AppTray {
  render(frame: TrayFrame): void;
  destroy(): void;
}

/** The Electron side of the tray: icon, click mapping per platform, menu re-set on every frame. */
export function createAppTray(platform: NodeJS.Platform, onAction: (action: TrayActionId) => void, onCommand: (command: TrayCommand) => void): AppTray {
  // Read once at start: the files cannot vanish later (e.g. a temp-folder cleanup on Windows).
  const icons = Object.fromEntries(STATES.map((state) => [state, loadIcon(platform, state)])) as Record<TrayIconState, NativeImage>;
  const icon = (state: TrayIconState) => icons[state];
  const tray = new Tray(icon('stopped'));
  const plan = trayClickPlan(platform);
  if (plan.leftClick === 'open-window') tray.on('click', () => onAction('open-window'));
  if (plan.doubleClick === 'open-window') tray.on('double-click', () => onAction('open-window'));
  let shownIcon: TrayIconState = 'stopped';
  return {
    render(frame) {
      // Linux trays show a stale or blank menu unless it is set again after every change.
      const menu = Menu.buildFromTemplate(toMenuTemplate(frame.menu, onAction, onCommand));
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

const STATES: TrayIconState[] = ['running', 'stopped', 'error'];

function loadIcon(platform: NodeJS.Platform, state: TrayIconState): NativeImage {
  const source = trayIconSource(platform, state);
  const image = nativeImage.createFromBuffer(fs.readFileSync(resourcePath(source.files[1])), { scaleFactor: 1 });
  image.addRepresentation({ scaleFactor: 2, buffer: fs.readFileSync(resourcePath(source.files[2])) });
  if (source.template) image.setTemplateImage(true);
  return image;
}
