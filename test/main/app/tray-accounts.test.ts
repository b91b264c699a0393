import { describe, expect, it } from 'vitest';
import { accountItems } from '../../../main/app/tray-accounts.js';
import { buildTrayMenu, type TrayMenuItem } from '../../../main/app/tray-menu.js';
import type { AppStatus } from '../../../main/app/status-source.js';

/** The tray's Accounts ▸ submenu as data (issue 29). */
describe('accountItems', () => {
  it('one line per account with its status, an error with its reason, then Sign in… which opens the Accounts page', () => {
    expect(
      accountItems([
        { provider: 'codex', label: 'me@example.com (plus)', status: 'active' },
        { provider: 'ghcp', label: 'octocat', status: 'paused' },
        { provider: 'codex', label: 'old@example.com', status: 'error', lastError: 'codex: signed out by the provider: sign in again (refresh_token_reused)' },
      ]),
    ).toEqual([
      {
        type: 'submenu',
        label: 'Accounts (1 needs attention)',
        enabled: true,
        items: [
          { type: 'normal', label: 'codex · me@example.com (plus) · active', enabled: false },
          { type: 'normal', label: 'ghcp · octocat · paused', enabled: false },
          { type: 'normal', label: 'codex · old@example.com · error: codex: signed out by the provider: sign in again…', enabled: false },
          { type: 'separator' },
          { type: 'normal', label: 'Sign in…', enabled: true, action: 'open-accounts' },
        ],
      },
    ]);
  });

  it('lists the accounts CLIProxyAPI serves like the native ones; iflow as discontinued (issue 31.3)', () => {
    const items = accountItems([
      { provider: 'codex', label: 'me@example.com (plus)', status: 'active' },
      { provider: 'agy', label: 'agy@example.com', status: 'active' },
      { provider: 'kiro', label: 'builder@example.com', status: 'paused' },
      { provider: 'gemini', label: 'dev@example.com', status: 'expired' },
      { provider: 'iflow', label: 'old@example.com', status: 'active' },
    ]);
    expect(items[0]).toMatchObject({ type: 'submenu', label: 'Accounts (1 needs attention)' });
    const labels = items[0]?.type === 'submenu' ? items[0].items.map((i) => (i.type === 'separator' ? '---' : i.label)) : [];
    expect(labels).toEqual([
      'codex · me@example.com (plus) · active',
      'agy · agy@example.com · active',
      'kiro · builder@example.com · paused',
      'gemini · dev@example.com · expired',
      'iflow · old@example.com · discontinued',
      '---',
      'Sign in…',
    ]);
  });

  it('none signed in, unreadable, or not read at all', () => {
    const lines = (items: TrayMenuItem[]) => (items[0]?.type === 'submenu' ? items[0].items.map((i) => (i.type === 'separator' ? '---' : i.label)) : []);
    expect(lines(accountItems([]))).toEqual(['No accounts signed in', '---', 'Sign in…']);
    expect(lines(accountItems(null))).toEqual(['Accounts unavailable', '---', 'Sign in…']);
    expect(accountItems(undefined)).toEqual([]);
  });

  it('sits in the tray menu after the profiles, before the usage lines', () => {
    const status: AppStatus = { proxy: { running: false }, bridge: null, todayCost: 1, anomalies: 0, desktop: null, accounts: [] };
    const labels = buildTrayMenu({ status, pending: new Set() }).map((i) => (i.type === 'separator' ? '---' : i.label));
    expect(labels).toEqual(['Open window', '---', 'Proxy stopped', 'Start proxy', '---', 'Accounts', 'Add provider…', '---', 'Today: $1.00', 'No anomalies in 7 days', 'Refresh usage', '---', 'Quit Switchboard']);
  });
});
