import path from 'node:path';

/**
 * Launch at login (`desktop.launch_at_login` in config.yaml). macOS and Windows use
 * app.setLoginItemSettings; Electron has no Linux login items, so there an XDG autostart entry is
 * written. The plan is data; launch-at-login.ts applies it.
 */
export const HIDDEN_ARG = '--hidden';

export type LoginItemPlan =
  | { kind: 'login-item'; settings: { openAtLogin: boolean; args: string[] } }
  | { kind: 'xdg-autostart'; file: string; content: string | null };

export interface LoginItemContext {
  platform: NodeJS.Platform;
  execPath: string;
  env: NodeJS.ProcessEnv;
  homeDir: string;
}

export function loginItemPlan(enabled: boolean, ctx: LoginItemContext): LoginItemPlan {
  if (ctx.platform === 'darwin' || ctx.platform === 'win32') {
    // Windows matches the entry by its args too, so enabling and disabling pass the same ones.
    return { kind: 'login-item', settings: { openAtLogin: enabled, args: ctx.platform === 'win32' ? [HIDDEN_ARG] : [] } };
  }
  const configHome = ctx.env.XDG_CONFIG_HOME || path.join(ctx.homeDir, '.config');
  const file = path.join(configHome, 'autostart', 'switchboard.desktop');
  // An AppImage runs from a temporary mount; $APPIMAGE is the file the user keeps.
  const exec = ctx.env.APPIMAGE || ctx.execPath;
  return { kind: 'xdg-autostart', file, content: enabled ? autostartEntry(exec) : null };
}

export function autostartEntry(exec: string): string {
  return [
    '[Desktop Entry]',
    'Type=Application',
    'Name=Switchboard',
    'Comment=Local proxy control and usage analytics',
    `Exec=${quoteExecArg(exec)} ${HIDDEN_ARG}`,
    'Terminal=false',
    'X-GNOME-Autostart-enabled=true',
    '',
  ].join('\n');
}

/**
 * Desktop Entry quoting: reserved characters go inside double quotes with \ " ` $ escaped; the
 * string-value escape then doubles every backslash, and % is doubled so it is no field code.
 */
export function quoteExecArg(arg: string): string {
  const field = arg.replace(/%/g, '%%');
  if (/^[A-Za-z0-9_@%+=:,./-]+$/.test(field)) return field;
  const quoted = `"${field.replace(/[\\"`$]/g, (c) => `\\${c}`)}"`;
  return quoted.replace(/\\/g, '\\\\');
}

/** Started by the login item (or with --hidden): stay in the tray instead of opening the window. */
export function startsHidden(argv: readonly string[], openedAtLogin: boolean): boolean {
  return openedAtLogin || argv.includes(HIDDEN_ARG);
}
