import { describe, expect, it } from 'vitest';
import type { TrayActionId, TrayMenuItem } from '../../../main/app/tray-menu.js';
import { toMenuTemplate } from '../../../main/app/tray-template.js';

describe('toMenuTemplate', () => {
  it('maps items to Electron menu entries whose clicks report the action id', () => {
    const clicked: TrayActionId[] = [];
    const items: TrayMenuItem[] = [
      { type: 'normal', label: 'Open window', enabled: true, action: 'open-window' },
      { type: 'separator' },
      { type: 'normal', label: 'Proxy stopped', enabled: false },
      { type: 'normal', label: 'Start proxy', enabled: false, action: 'proxy-start' },
    ];
    const template = toMenuTemplate(items, (a) => clicked.push(a));
    expect(template.map(({ click: _click, ...rest }) => rest)).toEqual([
      { type: 'normal', label: 'Open window', enabled: true, id: 'open-window' },
      { type: 'separator' },
      { type: 'normal', label: 'Proxy stopped', enabled: false },
      { type: 'normal', label: 'Start proxy', enabled: false, id: 'proxy-start' },
    ]);
    expect(template[2]!.click).toBeUndefined();
    (template[0]!.click as () => void)();
    (template[3]!.click as () => void)();
    expect(clicked).toEqual(['open-window', 'proxy-start']);
  });
});
