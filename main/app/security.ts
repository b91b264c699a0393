import { shell, type Session, type WebContents } from 'electron';
import { allowPermission, decideWindowOpen, isAllowedNavigation } from './guards.js';

/** Applies the guards of guards.ts to every web contents the app creates (decisions §7). */
export function guardWebContents(contents: WebContents, origin: string): void {
  const stayHome = (event: { preventDefault(): void }, url: string) => {
    if (!isAllowedNavigation(url, origin)) event.preventDefault();
  };
  contents.on('will-navigate', stayHome);
  contents.on('will-redirect', stayHome);
  contents.on('will-attach-webview', (event) => event.preventDefault());
  contents.setWindowOpenHandler(({ url }) => {
    const decision = decideWindowOpen(url);
    if (decision.openExternally) void shell.openExternal(decision.openExternally);
    return { action: decision.action };
  });
}

/** Every permission request and check is refused: the dashboard needs none. */
export function guardSession(session: Session): void {
  session.setPermissionRequestHandler((_contents, permission, callback) => callback(allowPermission(permission)));
  session.setPermissionCheckHandler((_contents, permission) => allowPermission(permission));
}
