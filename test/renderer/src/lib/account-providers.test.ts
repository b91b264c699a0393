import { describe, expect, it } from 'vitest';
import { providerDisplay, servedNote } from '../../../../renderer/src/lib/account-providers.js';

describe('which engine serves each provider, as the Accounts page says it', () => {
  it.each([
    ['codex', 'engine', null],
    ['ghcp', 'engine', null],
    ['agy', 'cliproxy', 'Served by CLIProxyAPI:'],
    ['kiro', 'cliproxy', 'Served by CLIProxyAPI Plus:'],
    ['gemini', 'cliproxy', 'Served by CLIProxyAPI Plus:'],
    ['iflow', 'discontinued', 'Discontinued: iFlow shut down on 2026-04-17.'],
  ] as const)('%s → %s', (provider, servedBy, note) => {
    expect(providerDisplay(provider).servedBy).toBe(servedBy);
    const text = servedNote(provider);
    if (note === null) expect(text).toBeNull();
    else expect(text?.startsWith(note)).toBe(true);
  });

  it('an unknown provider gets its own name and no note', () => {
    expect(providerDisplay('future')).toEqual({ badge: 'future', name: 'future', servedBy: 'engine' });
    expect(servedNote('future')).toBeNull();
  });
});
