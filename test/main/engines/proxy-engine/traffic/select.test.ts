import { describe, expect, it } from 'vitest';
import { parseProxyConfig } from '../../../../../main/engines/proxy-engine/config.js';
import type { RoutedUpstream } from '../../../../../main/engines/proxy-engine/providers/account-upstream.js';
import { KeyPool } from '../../../../../main/engines/proxy-engine/traffic/key-pool.js';
import { attemptOrder, MAX_ATTEMPTS, resolveUpstreams } from '../../../../../main/engines/proxy-engine/traffic/select.js';

const config = parseProxyConfig(`
upstreams:
  - { name: a, format: openai, base_url: "http://a/v1", api_key: [a1, a2], models: [m1, shared] }
  - { name: b, format: anthropic, base_url: "http://b", api_key: b1, models: [claude-x, shared] }
model_aliases: { fast: m1 }
`);

describe('resolveUpstreams', () => {
  it.each([
    ['m1', undefined, ['a'], 'm1'],
    ['shared', undefined, ['a', 'b'], 'shared'],
    ['fast', undefined, ['a'], 'm1'],
    ['anything', 'b', ['b'], 'anything'],
  ])('model %s pinned %s → %j as %s', (model, pinned, names, upstreamModel) => {
    const r = resolveUpstreams(config, model, pinned);
    expect(r.ok && { names: r.upstreams.map((u) => u.name), upstreamModel: r.upstreamModel }).toEqual({ names, upstreamModel });
  });

  it('an unknown model is a 404 naming it', () => {
    expect(resolveUpstreams(config, 'gpt-9', undefined)).toEqual({ ok: false, status: 404, message: 'Unknown model "gpt-9": no upstream in proxy/config.yaml lists it and no signed-in account serves it' });
  });

  it('an unknown pinned provider is a 404 naming it', () => {
    expect(resolveUpstreams(config, 'm1', 'zzz')).toEqual({ ok: false, status: 404, message: 'Unknown provider "zzz": no upstream of that name in proxy/config.yaml and no signed-in account of it' });
  });
});

describe('attemptOrder', () => {
  const pools = () => {
    const map = new Map<RoutedUpstream, KeyPool>();
    return (u: RoutedUpstream) => map.get(u) ?? map.set(u, new KeyPool(Array.isArray(u.api_key) ? u.api_key : [u.api_key!])).get(u)!;
  };
  const label = (attempts: ReturnType<typeof attemptOrder>) => attempts.map((a) => `${a.upstream.name}:${a.pool.key(a.slot)}`);

  it('tries every free key of every upstream, upstreams in config order', () => {
    expect(label(attemptOrder(config.upstreams, pools(), 0))).toEqual(['a:a1', 'a:a2', 'b:b1']);
  });

  it('with everything cooling, tries only the key that frees first', () => {
    const poolOf = pools();
    poolOf(config.upstreams[0]!).coolDown(0, 0, 500);
    poolOf(config.upstreams[0]!).coolDown(1, 0, 400);
    poolOf(config.upstreams[1]!).coolDown(0, 0, 300);
    expect(label(attemptOrder(config.upstreams, poolOf, 10))).toEqual(['b:b1']);
  });

  it(`never plans more than ${MAX_ATTEMPTS} attempts`, () => {
    const many = parseProxyConfig(`upstreams: [{ name: x, format: openai, base_url: "http://x/v1", api_key: [${Array.from({ length: 12 }, (_, i) => `k${i}`).join(', ')}], models: [m] }]`);
    expect(attemptOrder(many.upstreams, pools(), 0)).toHaveLength(MAX_ATTEMPTS);
  });
});
