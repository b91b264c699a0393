import type { MenuItemConstructorOptions } from 'electron';
import type { TrayActionId, TrayMenuItem } from './tray-menu.js';

/** Menu data → Electron menu template (type-only electron import: runs and tests on plain Node). */
export function toMenuTemplate(items: TrayMenuItem[], onAction: (action: TrayActionId) => void): MenuItemConstructorOptions[] {
  return items.map((entry) => {
    if (entry.type === 'separator') return { type: 'separator' };
    const action = entry.action;
    return {
      type: 'normal',
      label: entry.label,
      enabled: entry.enabled,
      ...(action ? { id: action, click: () => onAction(action) } : {}),
    };
  });
}
