import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { expandHome } from '../../../main/infra/home-path.js';

describe('expandHome', () => {
  const env = { HOME: '/home/tester' };
  it.each([
    ['~', '/home/tester'],
    ['~/.factory/settings.json', path.join('/home/tester', '.factory', 'settings.json')],
    ['/etc/x.json', '/etc/x.json'],
    ['.factory/settings.json', path.join('/home/tester', '.factory', 'settings.json')],
    ['~other/x', path.join('/home/tester', '~other', 'x')],
  ])('%s -> %s', (input, expected) => {
    expect(expandHome(input, env)).toBe(expected);
  });
});
