import { describe, expect, it } from 'vitest';
import { BACKGROUND, DEFAULT_SIZE, MIN_SIZE, windowOptions } from '../../../main/app/window-options.js';

describe('windowOptions', () => {
  const options = windowOptions({ preloadPath: '/app/dist/preload/index.cjs', dark: false });

  it('isolates the page: context isolation, sandbox, no Node, web security, explicitly', () => {
    expect(options.webPreferences).toEqual({
      preload: '/app/dist/preload/index.cjs',
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      nodeIntegrationInSubFrames: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      webviewTag: false,
      navigateOnDragDrop: false,
      safeDialogs: true,
      spellcheck: false,
    });
  });

  it('stays hidden until ready-to-show, with a sensible size and minimum', () => {
    expect(options.show).toBe(false);
    expect(options).toMatchObject({ width: DEFAULT_SIZE.width, height: DEFAULT_SIZE.height, minWidth: MIN_SIZE.width, minHeight: MIN_SIZE.height });
    expect(options.x).toBeUndefined();
    expect(options.title).toBe('Switchboard');
  });

  it('paints the background of the system theme before the page loads', () => {
    expect(options.backgroundColor).toBe(BACKGROUND.light);
    expect(windowOptions({ preloadPath: 'p', dark: true }).backgroundColor).toBe(BACKGROUND.dark);
    expect(BACKGROUND.light).not.toBe(BACKGROUND.dark);
  });

  it('uses restored bounds when given', () => {
    const restored = windowOptions({ preloadPath: 'p', dark: false, bounds: { x: 10, y: 20, width: 1000, height: 700 } });
    expect(restored).toMatchObject({ x: 10, y: 20, width: 1000, height: 700 });
  });
});
