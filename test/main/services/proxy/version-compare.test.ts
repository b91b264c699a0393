import { describe, expect, it } from 'vitest';
import { cleanVersion, compareVersions } from '../../../../main/services/proxy/version-compare.js';

describe('compareVersions (build-suffix aware)', () => {
  const sign = (a: string, b: string) => Math.sign(compareVersions(a, b) ?? NaN);
  it.each([
    ['7.2.127-21', '7.2.127-11', 1],
    ['7.2.127-11', '7.2.127-21', -1],
    ['v7.2.127-21', '7.2.127-21', 0],
    ['7.2.127-0', '7.2.127', 1],
    ['7.2.128', '7.2.127-99', 1],
    ['6.9.8-0-plus', '6.9.8-0', 0],
    ['10.0.0', '9.99.99', 1],
    ['0.1.0', '0.1.0', 0],
    ['1.2.3', '1.2.10', -1],
  ])('%s vs %s -> %i', (a, b, expected) => {
    expect(sign(a, b)).toBe(expected);
  });

  it('answers null for text that is no version', () => {
    expect(compareVersions('latest', '1.0.0')).toBeNull();
    expect(compareVersions('1.0.0', '')).toBeNull();
  });

  it('drops a leading v only', () => {
    expect(cleanVersion(' v6.9.8-0 ')).toBe('6.9.8-0');
  });
});
