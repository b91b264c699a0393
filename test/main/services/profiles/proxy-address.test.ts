import { describe, expect, it } from 'vitest';
import { hostOf, pointsAtProxy, proxyBaseUrl } from '../../../../main/services/profiles/proxy-address.js';

const proxy = { host: '127.0.0.1', port: 8317 };

describe('pointsAtProxy', () => {
  const rows: Array<[string | null, boolean]> = [
    ['http://127.0.0.1:8317', true],
    ['http://localhost:8317/', true],
    ['http://[::1]:8317', true],
    ['http://127.0.0.1:8317/v1', true],
    ['127.0.0.1:8317', true],
    ['http://127.0.0.1:8318', false],
    ['http://127.0.0.1', false],
    ['https://api.z.ai', false],
    ['http://10.0.0.5:8317', false],
    ['ftp://127.0.0.1:8317', false],
    ['', false],
    [null, false],
  ];
  it.each(rows)('%s → %s', (url, expected) => {
    expect(pointsAtProxy(url, proxy)).toBe(expected);
  });

  it('matches a proxy bound to another host by that host', () => {
    expect(pointsAtProxy('http://box.lan:9000', { host: 'box.lan', port: 9000 })).toBe(true);
    expect(pointsAtProxy('http://127.0.0.1:9000', { host: 'box.lan', port: 9000 })).toBe(false);
  });
});

describe('proxyBaseUrl / hostOf', () => {
  it('uses 127.0.0.1 for a loopback or all-interfaces proxy', () => {
    expect(proxyBaseUrl(proxy)).toBe('http://127.0.0.1:8317');
    expect(proxyBaseUrl({ host: '0.0.0.0', port: 9 })).toBe('http://127.0.0.1:9');
    expect(proxyBaseUrl({ host: 'box.lan', port: 9 })).toBe('http://box.lan:9');
  });

  it('answers host[:port] without scheme, path or credentials', () => {
    expect(hostOf('https://user:secret@api.z.ai/api/anthropic?x=1')).toBe('api.z.ai');
    expect(hostOf('http://127.0.0.1:8317')).toBe('127.0.0.1:8317');
    expect(hostOf('api.example.com/v1')).toBe('api.example.com');
    expect(hostOf(null)).toBeNull();
    expect(hostOf('')).toBeNull();
  });
});
