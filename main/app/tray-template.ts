import type { MenuItemConstructorOptions } from 'electron';
import type { TrayActionId, TrayCommand, TrayMenuItem } from './tray-menu.js';

/** Menu data → Electron menu template (type-only electron import: runs and tests on plain Node). */
export function toMenuTemplate(
  items: TrayMenuItem[],
  onAction: (action: TrayActionId) => void,
  onCommand: (command: TrayCommand) => void = () => undefined,
): MenuItemConstructorOptions[] {
  return items.map((entry): MenuItemConstructorOptions => {
    switch (entry.type) {
      case 'separator':
        return { type: 'separator' };
      case 'submenu':
        return { type: 'submenu', label: entry.label, enabled: entry.enabled, submenu: toMenuTemplate(entry.items, onAction, onCommand) };
      case 'radio': {
        const command = entry.command;
        return { type: 'radio', label: entry.label, enabled: entry.enabled, checked: entry.checked, click: () => onCommand(command) };
      }
      case 'normal': {
        const { action, command } = entry;
        return {
          type: 'normal',
          label: entry.label,
          enabled: entry.enabled,
          ...(action ? { id: action, click: () => onAction(action) } : command ? { click: () => onCommand(command) } : {}),
        };
      }
    }
  });
}
