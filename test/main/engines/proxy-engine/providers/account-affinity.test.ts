import { describe, expect, it } from 'vitest';
import { AccountAffinity } from '../../../../../main/engines/proxy-engine/providers/account-affinity.js';
import type { AccountUpstream } from '../../../../../main/engines/proxy-engine/providers/account-upstream.js';
import { KeyPool } from '../../../../../main/engines/proxy-engine/traffic/key-pool.js';

function upstream(files: string[]): AccountUpstream {
  const accounts = files.map((file) => ({ file, email: `${file}@example.com`, token: `t-${file}` }));
  return { kind: 'account', name: 'codex', format: 'responses', base_url: 'http://127.0.0.1:9', models: [], api_key: accounts.map((a) => a.token), accounts, pool: new KeyPool(accounts.map((a) => a.token)) };
}

describe('AccountAffinity', () => {
  it('remembers the account by file, so a re-read that reorders the accounts keeps the session on it', () => {
    const affinity = new AccountAffinity();
    affinity.remember('s1', upstream(['a', 'b', 'c']), 1, 0);
    expect(affinity.slotFor('s1', upstream(['a', 'b', 'c']), 10)).toBe(1);
    expect(affinity.slotFor('s1', upstream(['b', 'c']), 10)).toBe(0);
    expect(affinity.slotFor('s1', upstream(['a', 'c']), 10)).toBeUndefined();
    expect(affinity.slotFor('s2', upstream(['a', 'b', 'c']), 10)).toBeUndefined();
  });

  it('forgets a session after its idle time', () => {
    const affinity = new AccountAffinity(10, 1000);
    const u = upstream(['a', 'b']);
    affinity.remember('s1', u, 1, 0);
    expect(affinity.slotFor('s1', u, 999)).toBe(1);
    expect(affinity.slotFor('s1', u, 1000)).toBeUndefined();
    expect(affinity.size).toBe(0);
  });

  it('keeps at most its bound of sessions, dropping the least recently used', () => {
    const affinity = new AccountAffinity(3, 60_000);
    const u = upstream(['a', 'b']);
    for (const s of ['s1', 's2', 's3']) affinity.remember(s, u, 0, 0);
    affinity.remember('s1', u, 1, 1); // s1 used again: s2 is now the oldest
    affinity.remember('s4', u, 0, 2);
    expect(affinity.size).toBe(3);
    expect(affinity.slotFor('s2', u, 3)).toBeUndefined();
    expect(affinity.slotFor('s1', u, 3)).toBe(1);
  });
});

describe('KeyPool strategies', () => {
  it('fill-first starts at the first free slot every time; round-robin takes turns', () => {
    const fill = new KeyPool(['a', 'b', 'c'], 'fill-first');
    expect([fill.freeSlots(0)[0], fill.freeSlots(0)[0]]).toEqual([0, 0]);
    fill.coolDownUntil(0, 100, 'quota exhausted');
    expect(fill.freeSlots(50)).toEqual([1, 2]);
    expect(fill.reason(0)).toBe('quota exhausted');
    expect(fill.freeSlots(100)[0]).toBe(0);
    const rr = new KeyPool(['a', 'b', 'c']);
    expect([rr.freeSlots(0)[0], rr.freeSlots(0)[0], rr.freeSlots(0)[0]]).toEqual([0, 1, 2]);
  });

  it('puts a free preferred slot first without moving the round-robin cursor, and skips it while it cools', () => {
    const rr = new KeyPool(['a', 'b', 'c']);
    expect(rr.freeSlots(0, 2)).toEqual([2, 0, 1]);
    expect(rr.freeSlots(0)[0]).toBe(0);
    rr.coolDownUntil(2, 100);
    expect(rr.freeSlots(50, 2)).toEqual([1, 0]);
  });
});

describe('routing.account_strategy and routing.session_affinity in proxy/config.yaml', () => {
  it('default to round-robin with affinity, take fill-first, and refuse anything else by name', async () => {
    const { parseProxyConfig, ProxyConfigError } = await import('../../../../../main/engines/proxy-engine/config.js');
    expect(parseProxyConfig('{}').routing).toMatchObject({ account_strategy: 'round-robin', session_affinity: true });
    expect(parseProxyConfig('routing: { account_strategy: fill-first, session_affinity: false }').routing).toMatchObject({ account_strategy: 'fill-first', session_affinity: false });
    expect(() => parseProxyConfig('routing: { account_strategy: fill-last }')).toThrow(ProxyConfigError);
    expect(() => parseProxyConfig('routing: { account_strategy: fill-last }')).toThrow(/account_strategy/);
    expect(() => parseProxyConfig('routing: { session_affinity: "yes" }')).toThrow(/session_affinity/);
  });
});
