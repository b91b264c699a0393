import { BrowserWindow, nativeTheme, screen } from 'electron';
import type { UiPrefs } from './ui-prefs.js';
import { BACKGROUND, windowOptions } from './window-options.js';
import { dashboardUrl, pageOf, restoreBounds } from './window-state.js';

export interface DashboardWindow {
  /** Shows the window, creating it when it was closed (closing destroys it to free memory); `page` opens that route (`providers`). */
  show(page?: string): void;
  isOpen(): boolean;
}

export function createDashboardWindow(origin: string, preloadPath: string, prefs: UiPrefs): DashboardWindow {
  let win: BrowserWindow | null = null;
  nativeTheme.on('updated', () => win?.setBackgroundColor(nativeTheme.shouldUseDarkColors ? BACKGROUND.dark : BACKGROUND.light));

  const create = (page?: string): BrowserWindow => {
    const workAreas = screen.getAllDisplays().map((d) => d.workArea);
    const created = new BrowserWindow(
      windowOptions({ preloadPath, dark: nativeTheme.shouldUseDarkColors, bounds: restoreBounds(prefs.get('bounds'), workAreas) }),
    );
    created.once('ready-to-show', () => created.show());
    created.on('close', () => prefs.set('bounds', created.getNormalBounds()));
    created.on('closed', () => (win = null));
    created.webContents.on('did-navigate-in-page', (_event, url) => prefs.set('lastPage', pageOf(url)));
    void created.loadURL(dashboardUrl(origin, page ? `#/${page}` : prefs.get('lastPage')));
    return created;
  };

  return {
    show(page) {
      if (!win) {
        win = create(page);
        return;
      }
      if (page) void win.loadURL(dashboardUrl(origin, `#/${page}`));
      if (win.isMinimized()) win.restore();
      win.show();
      win.focus();
    },
    isOpen: () => win !== null,
  };
}
