import { describe, expect, it } from 'vitest';
import { bridgeInUse } from '../../../../../renderer/src/pages/overview/bridge-visibility.js';

describe('bridgeInUse (is the bridge shown on the Overview)', () => {
  const off = { enabled: false, authenticated: false, tokenExpired: false, daemonRunning: false };
  it.each([
    ['a fresh install: disabled, no credentials', off, false],
    ['enabled without credentials', { ...off, enabled: true }, true],
    ['disabled with valid credentials', { ...off, authenticated: true }, true],
    ['disabled with expired credentials', { ...off, tokenExpired: true }, true],
    ['a daemon still running', { ...off, daemonRunning: true }, true],
  ])('%s → %s', (_label, status, shown) => expect(bridgeInUse(status)).toBe(shown));
});
