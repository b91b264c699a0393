import { describe, expect, it } from 'vitest';
import { formatBytes } from '../../../../renderer/src/lib/format.js';

describe('formatBytes', () => {
  it.each([
    [0, '0 B'],
    [1023, '1023 B'],
    [1024, '1.0 KB'],
    [131_072, '128 KB'], // a small first scan: never "0.0 MB"
    [9.95 * 1024, '9.9 KB'],
    [10 * 1024, '10 KB'],
    [1024 ** 2, '1.0 MB'],
    [1_126_170_624, '1.0 GB'], // the 1 GiB corpus
    [250 * 1024 ** 3, '250 GB'],
    [3 * 1024 ** 4, '3.0 TB'],
    [5000 * 1024 ** 4, '5,000 TB'],
  ])('%d bytes read "%s"', (n, text) => {
    expect(formatBytes(n)).toBe(text);
  });
});
