import { describe, expect, it } from 'vitest';
import { BinaryAccounts, type CliproxyAccess } from '../../../../main/services/accounts/binary-accounts.js';
import { ManagementClient, ManagementError } from '../../../../main/services/cliproxy/management-client.js';

/** Which actions go through the running binary, and what a refusal becomes. */
function access(opts: { installed?: boolean; running?: boolean; answer?: () => unknown; start?: () => Promise<unknown> }) {
  const sent: Array<[string, string, unknown]> = [];
  const management = new ManagementClient(async () => ({ port: 1, secret: 's' }));
  management.request = (async (method: string, route: string, call?: { body?: unknown; query?: unknown }) => {
    sent.push([method, route, call?.body ?? call?.query]);
    return opts.answer?.();
  }) as ManagementClient['request'];
  const a: CliproxyAccess = {
    isInstalled: async () => opts.installed ?? true,
    isRunning: async () => opts.running ?? true,
    ensureRunning: opts.start ?? (async () => undefined),
    management,
  };
  return { a, sent };
}

describe('BinaryAccounts', () => {
  it('routes agy, kiro and gemini through a running binary; never codex or ghcp, never a stopped binary', async () => {
    const { a } = access({});
    const b = new BinaryAccounts(a);
    for (const p of ['agy', 'kiro', 'gemini'] as const) expect(await b.whileRunning(p)).toBe(a.management);
    for (const p of ['codex', 'ghcp', 'iflow'] as const) expect(await b.whileRunning(p)).toBeNull();
    expect(await new BinaryAccounts(access({ running: false }).a).whileRunning('kiro')).toBeNull();
    expect(await new BinaryAccounts(undefined).whileRunning('kiro')).toBeNull();
  });

  it('sends the auth-files calls; a 404 (file or route unknown) answers false so the caller writes on disk', async () => {
    const ok = access({});
    const b = new BinaryAccounts(ok.a);
    expect(await b.setDisabled(ok.a.management, 'kiro-a.json', true)).toBe(true);
    expect(await b.setPriority(ok.a.management, 'kiro-a.json', 3)).toBe(true);
    expect(await b.remove(ok.a.management, 'kiro-a.json')).toBe(true);
    expect(ok.sent).toEqual([
      ['PATCH', 'auth-files/status', { name: 'kiro-a.json', disabled: true }],
      ['PATCH', 'auth-files/fields', { name: 'kiro-a.json', priority: 3 }],
      ['DELETE', 'auth-files', { name: 'kiro-a.json' }],
    ]);
    const missing = access({ answer: () => Promise.reject(new ManagementError(404, 'no such file', 'auth file not found')) });
    expect(await new BinaryAccounts(missing.a).setDisabled(missing.a.management, 'kiro-a.json', true)).toBe(false);
    const broken = access({ answer: () => Promise.reject(new ManagementError(500, 'CLIProxyAPI answered 500 to auth-files/status')) });
    await expect(new BinaryAccounts(broken.a).setDisabled(broken.a.management, 'kiro-a.json', true)).rejects.toMatchObject({ code: 'provider-failed', detail: 'CLIProxyAPI answered 500 to auth-files/status' });
  });

  it('a sign-in needs the binary installed (409 code, with how to install) and started', async () => {
    await expect(new BinaryAccounts(access({ installed: false }).a).started('kiro')).rejects.toMatchObject({ code: 'binary-not-installed', detail: expect.stringContaining('switchboard cliproxy install --backend plus') });
    await expect(new BinaryAccounts(undefined).started('kiro')).rejects.toMatchObject({ code: 'binary-not-installed' });
    const failing = access({ start: async () => Promise.reject(new Error('port in use')) });
    await expect(new BinaryAccounts(failing.a).started('kiro')).rejects.toMatchObject({ code: 'provider-failed', detail: 'CLIProxyAPI did not start: port in use' });
  });
});
