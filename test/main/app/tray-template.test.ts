import { describe, expect, it } from 'vitest';
import type { TrayActionId, TrayCommand, TrayMenuItem } from '../../../main/app/tray-menu.js';
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

describe('toMenuTemplate: submenus and radio items', () => {
  it('nests submenus and reports radio and command clicks with their data', () => {
    const commands: TrayCommand[] = [];
    const items: TrayMenuItem[] = [
      {
        type: 'submenu',
        label: 'Profile: a',
        enabled: true,
        items: [
          { type: 'radio', label: 'a', checked: true, enabled: true, command: { kind: 'set-default', profile: 'a' } },
          { type: 'radio', label: 'b', checked: false, enabled: false, command: { kind: 'set-default', profile: 'b' } },
        ],
      },
      { type: 'normal', label: 'fast', enabled: true, command: { kind: 'apply-preset', profile: 'a', preset: 'fast' } },
    ];
    const template = toMenuTemplate(items, () => undefined, (c) => commands.push(c));
    const submenu = template[0]!.submenu as Array<{ type: string; label: string; checked: boolean; enabled: boolean; click: () => void }>;
    expect(template[0]).toMatchObject({ type: 'submenu', label: 'Profile: a', enabled: true });
    expect(submenu.map(({ click: _c, ...rest }) => rest)).toEqual([
      { type: 'radio', label: 'a', checked: true, enabled: true },
      { type: 'radio', label: 'b', checked: false, enabled: false },
    ]);
    submenu[1]!.click();
    (template[1]!.click as () => void)();
    expect(commands).toEqual([
      { kind: 'set-default', profile: 'b' },
      { kind: 'apply-preset', profile: 'a', preset: 'fast' },
    ]);
  });
});
