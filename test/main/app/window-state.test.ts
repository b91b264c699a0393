import { describe, expect, it } from 'vitest';
import { DEFAULT_SIZE, MIN_SIZE } from '../../../main/app/window-options.js';
import { dashboardUrl, pageOf, restoreBounds, restoreLastPage } from '../../../main/app/window-state.js';

const screen = [{ x: 0, y: 0, width: 1920, height: 1080 }];

describe('restoreBounds', () => {
  it('keeps bounds that are on a screen', () => {
    expect(restoreBounds({ x: 100, y: 50, width: 1000, height: 700 }, screen)).toEqual({ x: 100, y: 50, width: 1000, height: 700 });
  });

  it('drops the position when the window would be off every screen (monitor unplugged)', () => {
    expect(restoreBounds({ x: 3000, y: 50, width: 1000, height: 700 }, screen)).toEqual({ width: 1000, height: 700 });
    expect(restoreBounds({ x: 1900, y: 1060, width: 1000, height: 700 }, screen)).toEqual({ width: 1000, height: 700 });
  });

  it('finds the window on a second screen', () => {
    const two = [...screen, { x: 1920, y: 0, width: 1280, height: 1024 }];
    expect(restoreBounds({ x: 2000, y: 10, width: 1000, height: 700 }, two)).toEqual({ x: 2000, y: 10, width: 1000, height: 700 });
  });

  it('enforces the minimum size', () => {
    expect(restoreBounds({ x: 0, y: 0, width: 10, height: 10 }, screen)).toEqual({ x: 0, y: 0, width: MIN_SIZE.width, height: MIN_SIZE.height });
  });

  it.each([undefined, null, 'x', { x: 1 }, { x: 0, y: 0, width: -5, height: 100 }, { x: 0, y: 0, width: NaN, height: 1 }, { x: '0', y: 0, width: 900, height: 700 }])(
    'garbage %o falls back to the default size',
    (saved) => {
      expect(restoreBounds(saved, screen)).toEqual({ ...DEFAULT_SIZE });
    },
  );
});

describe('last page', () => {
  it.each([
    ['#/usage', '#/usage'],
    ['#/proxy/logs', '#/proxy/logs'],
    ['#/', '#/'],
    ['', ''],
    ['https://evil.example/', ''],
    ['#/usage?x=<script>', ''],
    ['//evil.example', ''],
    [42, ''],
    [`#/${'a'.repeat(200)}`, ''],
  ])('%o restores as %o', (saved, page) => {
    expect(restoreLastPage(saved)).toBe(page);
  });

  it('reads the hash route of a window URL', () => {
    expect(pageOf('http://127.0.0.1:3000/#/profiles')).toBe('#/profiles');
    expect(pageOf('http://127.0.0.1:3000/')).toBe('');
    expect(pageOf('nonsense')).toBe('');
  });

  it('the window always loads the local dashboard', () => {
    expect(dashboardUrl('http://127.0.0.1:3000', '#/usage')).toBe('http://127.0.0.1:3000/#/usage');
    expect(dashboardUrl('http://127.0.0.1:3000', 'https://evil.example')).toBe('http://127.0.0.1:3000/');
    expect(dashboardUrl('http://127.0.0.1:3000', undefined)).toBe('http://127.0.0.1:3000/');
  });
});
