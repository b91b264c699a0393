import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { trayClickPlan, trayIconFile, trayIconSource } from '../../../main/app/tray-platform.js';
import { resourcePath } from '../../../main/infra/app-root.js';

describe('trayClickPlan', () => {
  it('Windows: left click and double click open the window, right click shows the menu', () => {
    expect(trayClickPlan('win32')).toEqual({ attachContextMenu: true, leftClick: 'open-window', doubleClick: 'open-window' });
  });

  it('macOS: a click opens the menu (the OS does it; no handler competes)', () => {
    expect(trayClickPlan('darwin')).toEqual({ attachContextMenu: true, leftClick: 'none', doubleClick: 'none' });
  });

  it('Linux: menu only', () => {
    expect(trayClickPlan('linux')).toEqual({ attachContextMenu: true, leftClick: 'none', doubleClick: 'none' });
  });

  it('other Unixes behave like Linux', () => {
    expect(trayClickPlan('freebsd')).toEqual(trayClickPlan('linux'));
  });
});

describe('trayIconFile', () => {
  it('macOS uses template images, the others coloured ones', () => {
    expect(trayIconFile('darwin', 'running')).toBe('tray-runningTemplate.png');
    expect(trayIconFile('win32', 'error')).toBe('tray-error.png');
    expect(trayIconFile('linux', 'stopped')).toBe('tray-stopped.png');
  });

  it('loads 1x and 2x files, as template images on macOS only', () => {
    expect(trayIconSource('darwin', 'error')).toEqual({ files: { 1: 'tray-errorTemplate.png', 2: 'tray-errorTemplate@2x.png' }, template: true });
    expect(trayIconSource('win32', 'running')).toEqual({ files: { 1: 'tray-running.png', 2: 'tray-running@2x.png' }, template: false });
  });

  it('every icon the tray can ask for exists in resources/ with its @2x twin', () => {
    for (const platform of ['darwin', 'win32', 'linux'] as const) {
      for (const state of ['running', 'stopped', 'error'] as const) {
        const file = resourcePath(trayIconFile(platform, state));
        expect(fs.existsSync(file), file).toBe(true);
        expect(fs.existsSync(file.replace(/\.png$/, '@2x.png')), file).toBe(true);
      }
    }
  });

  it('icons are PNGs of the sizes electron-builder and the trays expect', () => {
    const size = (name: string) => {
      const bytes = fs.readFileSync(resourcePath(name));
      expect(bytes.subarray(1, 4).toString('ascii')).toBe('PNG');
      return [bytes.readUInt32BE(16), bytes.readUInt32BE(20)];
    };
    expect(size('icon.png')).toEqual([512, 512]);
    expect(size('tray-runningTemplate.png')).toEqual([16, 16]);
    expect(size('tray-runningTemplate@2x.png')).toEqual([32, 32]);
    expect(size(path.join('tray-error.png'))).toEqual([16, 16]);
  });
});
