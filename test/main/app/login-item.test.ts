import { describe, expect, it } from 'vitest';
import { autostartEntry, HIDDEN_ARG, loginItemPlan, quoteExecArg, startsHidden } from '../../../main/app/login-item.js';

const ctx = (platform: NodeJS.Platform, env: NodeJS.ProcessEnv = {}) => ({ platform, execPath: '/opt/Switchboard/switchboard', env, homeDir: '/home/ada' });

describe('loginItemPlan', () => {
  it('macOS: a login item without args', () => {
    expect(loginItemPlan(true, ctx('darwin'))).toEqual({ kind: 'login-item', settings: { openAtLogin: true, args: [] } });
  });

  it('Windows: the same --hidden args to enable and to disable (Windows matches entries by args)', () => {
    expect(loginItemPlan(true, ctx('win32'))).toEqual({ kind: 'login-item', settings: { openAtLogin: true, args: [HIDDEN_ARG] } });
    expect(loginItemPlan(false, ctx('win32'))).toEqual({ kind: 'login-item', settings: { openAtLogin: false, args: [HIDDEN_ARG] } });
  });

  it('Linux: an XDG autostart entry, removed when disabled', () => {
    expect(loginItemPlan(true, ctx('linux'))).toEqual({
      kind: 'xdg-autostart',
      file: '/home/ada/.config/autostart/switchboard.desktop',
      content: autostartEntry('/opt/Switchboard/switchboard'),
    });
    expect(loginItemPlan(false, ctx('linux'))).toEqual({ kind: 'xdg-autostart', file: '/home/ada/.config/autostart/switchboard.desktop', content: null });
  });

  it('Linux honours XDG_CONFIG_HOME and starts the AppImage file, not its temporary mount', () => {
    const plan = loginItemPlan(true, ctx('linux', { XDG_CONFIG_HOME: '/cfg', APPIMAGE: '/home/ada/Apps/Switchboard.AppImage' }));
    expect(plan).toMatchObject({ file: '/cfg/autostart/switchboard.desktop' });
    expect(plan.kind === 'xdg-autostart' && plan.content).toContain('Exec=/home/ada/Apps/Switchboard.AppImage --hidden\n');
  });
});

describe('autostart entry', () => {
  it('is a valid desktop entry that starts hidden', () => {
    expect(autostartEntry('/usr/bin/switchboard')).toBe(
      [
        '[Desktop Entry]',
        'Type=Application',
        'Name=Switchboard',
        'Comment=Local proxy control and usage analytics',
        'Exec=/usr/bin/switchboard --hidden',
        'Terminal=false',
        'X-GNOME-Autostart-enabled=true',
        '',
      ].join('\n'),
    );
  });

  it.each([
    ['/usr/bin/switchboard', '/usr/bin/switchboard'],
    ['/home/a b/Switchboard.AppImage', '"/home/a b/Switchboard.AppImage"'],
    ['/x/$HOME`id`"q"', '"/x/\\\\$HOME\\\\`id\\\\`\\\\"q\\\\""'],
    ['/x/100%/app', '/x/100%%/app'],
  ])('quotes %s as %s', (arg, quoted) => {
    expect(quoteExecArg(arg)).toBe(quoted);
  });
});

describe('startsHidden', () => {
  it('stays in the tray when started at login or with --hidden', () => {
    expect(startsHidden(['/app/switchboard'], false)).toBe(false);
    expect(startsHidden(['/app/switchboard', HIDDEN_ARG], false)).toBe(true);
    expect(startsHidden(['/app/switchboard'], true)).toBe(true);
  });
});
