import { describe, expect, it } from 'vitest';
import { installedLine, progressLine, progressPercent, refusalAdvice } from '../../../../renderer/src/lib/cliproxy-advice.js';

describe('the CLIProxyAPI card texts', () => {
  it.each([
    [{ received: 0, total: null }, '0 B downloaded'],
    [{ received: 1_300_000, total: 3 * 1024 * 1024 }, '1.2 MB of 3.0 MB (41%)'],
    [{ received: 3 * 1024 * 1024, total: 3 * 1024 * 1024 }, '3.0 MB of 3.0 MB (100%)'],
    [{ received: 10, total: 0 }, '10 B downloaded'],
  ])('progress %o → %s', (p, line) => {
    expect(progressLine(p)).toBe(line);
  });

  it('never shows more than 100%', () => {
    expect(progressPercent({ received: 20, total: 10 })).toBe(100);
  });

  it.each([
    [{ version: '6.9.45', previousVersion: '6.9.44', restarted: true }, '6.9.44 → 6.9.45, restarted'],
    [{ version: '6.9.45', previousVersion: '6.9.44', restarted: false }, '6.9.44 → 6.9.45'],
    [{ version: '6.9.44', previousVersion: null, restarted: false }, '6.9.44 installed'],
    [{ version: '6.9.44', previousVersion: '6.9.44', restarted: true }, '6.9.44 reinstalled, restarted'],
  ])('result %o → %s', (r, line) => {
    expect(installedLine(r)).toBe(line);
  });

  it('names a next step for each refusal of the install route, and none for other errors', () => {
    for (const error of ['Checksum mismatch', 'Known-bad version', 'No release asset', 'Download failed']) {
      expect(refusalAdvice(error)?.next).toMatch(/\w/);
    }
    expect(refusalAdvice('Checksum mismatch')?.next).toContain('Nothing was replaced');
    expect(refusalAdvice('Invalid install request')).toBeNull();
  });
});
