import { describe, expect, it } from 'vitest';
import {
  allowPermission,
  appOrigin,
  decideWindowOpen,
  externalHref,
  isAllowedNavigation,
  isSafeExternalUrl,
  isSameOrigin,
  isTrustedSender,
} from '../../../main/app/guards.js';

const origin = appOrigin(3000);

describe('navigation', () => {
  it('the origin is the loopback address with the API port', () => {
    expect(origin).toBe('http://127.0.0.1:3000');
  });

  it.each([
    ['http://127.0.0.1:3000/', true],
    ['http://127.0.0.1:3000/#/usage', true],
    ['http://127.0.0.1:3000/index.html?x=1', true],
    ['http://127.0.0.1:3001/', false],
    ['http://localhost:3000/', false],
    ['https://127.0.0.1:3000/', false],
    ['http://user:pw@127.0.0.1:3000/', false],
    ['http://127.0.0.1.evil.example:3000/', false],
    ['https://example.com/', false],
    ['file:///etc/passwd', false],
    ['javascript:alert(1)', false],
    ['data:text/html,<b>x</b>', false],
    ['not a url', false],
    ['', false],
  ])('%s allowed: %s', (url, allowed) => {
    expect(isAllowedNavigation(url, origin)).toBe(allowed);
    expect(isSameOrigin(url, origin)).toBe(allowed);
  });
});

describe('external links', () => {
  it.each([
    ['https://github.com/kaitranntt/CLIProxyAPIPlus/releases', true],
    ['https://example.com/path?q=1#x', true],
    ['http://example.com/', false],
    ['file:///tmp/x', false],
    ['javascript:alert(1)', false],
    ['mailto:a@example.com', false],
    ['smb://server/share', false],
    ['https://user:secret@example.com/', false],
    ['https://', false],
    ['https:', false],
    [`https://example.com/${'a'.repeat(3000)}`, false],
    [42, false],
    [undefined, false],
    [{ toString: () => 'https://example.com/' }, false],
  ])('%s is safe: %s', (url, safe) => {
    expect(isSafeExternalUrl(url)).toBe(safe);
  });

  it('window.open is always denied; https links go to the system browser', () => {
    expect(decideWindowOpen('https://example.com/')).toEqual({ action: 'deny', openExternally: 'https://example.com/' });
    expect(decideWindowOpen('http://example.com/')).toEqual({ action: 'deny' });
    expect(decideWindowOpen('http://127.0.0.1:3000/#/usage')).toEqual({ action: 'deny' });
    expect(decideWindowOpen('file:///etc/passwd')).toEqual({ action: 'deny' });
    // The OS gets the normalised form, the one that was checked.
    expect(decideWindowOpen('HTTPS://Example.COM/a/../b')).toEqual({ action: 'deny', openExternally: 'https://example.com/b' });
  });
});

describe('externalHref', () => {
  it('normalises what it lets through and refuses the rest', () => {
    expect(externalHref('https://example.com')).toBe('https://example.com/');
    expect(externalHref('http://example.com')).toBeUndefined();
  });
});

describe('permissions and IPC senders', () => {
  it.each(['notifications', 'media', 'geolocation', 'clipboard-read', 'clipboard-sanitized-write', 'openExternal', 'fullscreen', 'unknown'])(
    'permission %s is denied',
    (permission) => {
      expect(allowPermission(permission)).toBe(false);
    },
  );

  it('IPC is answered for the dashboard origin only', () => {
    expect(isTrustedSender('http://127.0.0.1:3000/#/proxy', origin)).toBe(true);
    expect(isTrustedSender('https://example.com/', origin)).toBe(false);
    expect(isTrustedSender(undefined, origin)).toBe(false);
  });
});
