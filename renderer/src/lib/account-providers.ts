/**
 * Where each subscription provider runs, as the Accounts page and its rows say it (decisions §4.1,
 * docs/cliproxy.md): codex and ghcp in the built-in engine; agy, kiro and gemini through the
 * managed CLIProxyAPI (agy on the original backend, kiro and gemini on Plus); iflow nowhere.
 */
export type ServedBy = 'engine' | 'cliproxy' | 'discontinued';

export interface ProviderDisplay {
  /** The badge's short name. */
  badge: string;
  /** Full name for titles and screen readers. */
  name: string;
  servedBy: ServedBy;
  /** The CLIProxyAPI backend that serves it (only for `cliproxy`). */
  backend?: 'original' | 'plus';
}

const PROVIDERS: Record<string, ProviderDisplay> = {
  codex: { badge: 'Codex', name: 'ChatGPT (Codex)', servedBy: 'engine' },
  ghcp: { badge: 'Copilot', name: 'GitHub Copilot', servedBy: 'engine' },
  agy: { badge: 'Antigravity', name: 'Antigravity', servedBy: 'cliproxy', backend: 'original' },
  kiro: { badge: 'Kiro', name: 'Kiro', servedBy: 'cliproxy', backend: 'plus' },
  gemini: { badge: 'Gemini', name: 'Gemini CLI / Code Assist', servedBy: 'cliproxy', backend: 'plus' },
  iflow: { badge: 'iFlow', name: 'iFlow (discontinued)', servedBy: 'discontinued' },
};

export function providerDisplay(provider: string): ProviderDisplay {
  return PROVIDERS[provider] ?? { badge: provider, name: provider, servedBy: 'engine' };
}

/** The one-line note under an account that another engine serves; null for the built-in engine's. */
export function servedNote(provider: string): string | null {
  const p = providerDisplay(provider);
  if (p.servedBy === 'discontinued') return 'Discontinued: iFlow shut down on 2026-04-17. This file is kept for reference; no requests go to it.';
  if (p.servedBy === 'engine') return null;
  const backend = p.backend === 'plus' ? 'CLIProxyAPI Plus' : 'CLIProxyAPI';
  return `Served by ${backend}: the proxy forwards its models to the managed binary, which also refreshes its sign-in.`;
}
