import { describe, expect, it } from 'vitest';
import { accountsFrom, groupByProvider, worstWindow } from '../../../../renderer/src/lib/quota-accounts.js';

const window = (model: string, used: number, limit: number, resetAt: number | null = null) => ({ model, used, limit, remaining: limit - used, resetAt });

describe('quota accounts', () => {
  it('finds the accounts in auth file names', () => {
    expect(accountsFrom(['codex-me@x.com.json', 'github-copilot-dev.json', 'notes.txt', 'gemini-a@b.json'])).toEqual([
      { provider: 'codex', accountId: 'me@x.com' },
      { provider: 'ghcp', accountId: 'dev' },
      { provider: 'gemini', accountId: 'a@b' },
    ]);
  });

  it('the worst window is the one closest to its limit; a window without a limit counts as unused', () => {
    expect(worstWindow([window('5h', 42, 100), window('week', 91, 100), window('free', 5, 0)])?.model).toBe('week');
    expect(worstWindow([])).toBeNull();
  });

  it('per provider: the worst window across accounts, failures kept with their provider', () => {
    const quota = (accountId: string, quotas: ReturnType<typeof window>[]) => ({ provider: 'codex', accountId, quotas }) as never;
    const grouped = groupByProvider([
      { account: { provider: 'codex', accountId: 'a' }, quota: quota('a', [window('5h', 10, 100)]) },
      { account: { provider: 'codex', accountId: 'b' }, quota: quota('b', [window('week', 70, 100)]) },
      { account: { provider: 'gemini', accountId: 'c' }, error: new Error('token expired') },
    ]);
    expect(grouped.map((g) => [g.provider, g.worst?.accountId ?? null, g.worst?.window.model ?? null, g.accounts.length])).toEqual([
      ['codex', 'b', 'week', 2],
      ['gemini', null, null, 1],
    ]);
  });
});
