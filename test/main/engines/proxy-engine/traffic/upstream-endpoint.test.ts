import { describe, expect, it } from 'vitest';
import type { Upstream } from '../../../../../main/engines/proxy-engine/config.js';
import { upstreamEndpoint } from '../../../../../main/engines/proxy-engine/traffic/upstream-endpoint.js';

const upstream = (format: Upstream['format'], base_url: string): Upstream => ({ name: 'u', format, base_url, models: [] });

describe('upstreamEndpoint', () => {
  it.each([
    ['openai', 'https://api.openai.com/v1', '/chat/completions', '', { host: 'api.openai.com', href: 'https://api.openai.com/v1/chat/completions', origin: 'https://api.openai.com', path: '/v1/chat/completions' }],
    ['openai', 'http://127.0.0.1:8080/v1///', '/chat/completions', '?beta=true', { host: '127.0.0.1:8080', href: 'http://127.0.0.1:8080/v1/chat/completions', origin: 'http://127.0.0.1:8080', path: '/v1/chat/completions' }],
    ['anthropic', 'https://api.anthropic.com', '/v1/messages', '?beta=true', { host: 'api.anthropic.com', href: 'https://api.anthropic.com/v1/messages?beta=true', origin: 'https://api.anthropic.com', path: '/v1/messages?beta=true' }],
    ['anthropic', 'http://[::1]:9000/', '/v1/messages/count_tokens', '', { host: '[::1]:9000', href: 'http://[::1]:9000/v1/messages/count_tokens', origin: 'http://[::1]:9000', path: '/v1/messages/count_tokens' }],
    ['anthropic', 'http://u:p@gw.local/anthropic', '/v1/messages', '?a=b c', { host: 'gw.local', href: 'http://u:p@gw.local/anthropic/v1/messages?a=b%20c', origin: 'http://gw.local', path: '/anthropic/v1/messages?a=b%20c', basicAuth: `Basic ${Buffer.from('u:p').toString('base64')}` }],
  ] as const)('%s %s + %s%s', (format, base, path, search, expected) => {
    const got = upstreamEndpoint(upstream(format, base), path, search);
    expect(got).toEqual(expected);
  });

  it('parses each upstream, path and query once, and keeps the cache bounded', () => {
    const u = upstream('anthropic', 'http://127.0.0.1:1');
    const first = upstreamEndpoint(u, '/v1/messages', '?beta=true');
    expect(upstreamEndpoint(u, '/v1/messages', '?beta=true')).toBe(first);
    expect(upstreamEndpoint(u, '/v1/messages', '')).not.toBe(first);
    for (let i = 0; i < 100; i++) expect(upstreamEndpoint(u, '/v1/messages', `?n=${i}`).path).toBe(`/v1/messages?n=${i}`);
    // Another upstream object with the same URL (a reloaded config) gets its own entries.
    expect(upstreamEndpoint(upstream('anthropic', 'http://127.0.0.1:1'), '/v1/messages', '?beta=true')).not.toBe(first);
  });
});
