/**
 * The six provider values of the contract (decisions §4.1) and what this version knows about each:
 * the `type` of its auth files, whether it signs in natively here, its tier models (reference §9.4)
 * and the models listed for its accounts. The models and tiers of the natively executed providers
 * come from infra/account-models.ts, the same list the engine routes by.
 */
import { ACCOUNT_MODELS } from '../../infra/account-models.js';

export const ACCOUNT_PROVIDERS = ['agy', 'gemini', 'codex', 'iflow', 'kiro', 'ghcp'] as const;
export type AccountProvider = (typeof ACCOUNT_PROVIDERS)[number];

export const INVALID_PROVIDER_TEXT = `Provider must be one of: ${ACCOUNT_PROVIDERS.join(', ')}`;

export interface TierModels {
  default: string;
  opus: string;
  sonnet: string;
  haiku: string;
}

export interface ProviderInfo {
  /** `type` inside its auth files (CLIProxyAPI's). */
  type: string;
  label: string;
  /** Signs in natively in this version (codex, ghcp, agy, gemini); the others are listed but not signed in here. */
  native: boolean;
  /** Why there is no sign-in here, for the error answer. */
  unavailable?: string;
  tiers?: TierModels;
  models: string[];
}

const LATER = 'signs in through the managed CLIProxyAPI binary, which this version does not install yet';

export const PROVIDERS: Record<AccountProvider, ProviderInfo> = {
  codex: {
    type: 'codex',
    label: 'ChatGPT (Codex)',
    native: true,
    tiers: ACCOUNT_MODELS.codex.tiers,
    models: [...ACCOUNT_MODELS.codex.models],
  },
  ghcp: {
    type: 'github-copilot',
    label: 'GitHub Copilot',
    native: true,
    tiers: ACCOUNT_MODELS.ghcp.tiers,
    models: [...ACCOUNT_MODELS.ghcp.models],
  },
  // agy and gemini sign in natively (Google OAuth); the managed CLIProxyAPI runs and refreshes them.
  agy: { type: 'antigravity', label: 'Antigravity', native: true, tiers: ACCOUNT_MODELS.agy.tiers, models: [...ACCOUNT_MODELS.agy.models] },
  gemini: { type: 'gemini', label: 'Gemini CLI / Code Assist', native: true, tiers: ACCOUNT_MODELS.gemini.tiers, models: [...ACCOUNT_MODELS.gemini.models] },
  // Signs in through the managed CLIProxyAPI's management routes (AWS Builder ID device code or IAM
  // Identity Center); the binary then owns the file's refresh. The IDE's token file imports natively.
  kiro: {
    type: 'kiro',
    label: 'Kiro',
    native: true,
    tiers: ACCOUNT_MODELS.kiro.tiers,
    models: [...ACCOUNT_MODELS.kiro.models],
  },
  iflow: { type: 'iflow', label: 'iFlow (discontinued)', native: false, unavailable: 'iFlow shut down on 2026-04-17; existing files are listed, no sign-in', models: [] },
};

export function isAccountProvider(value: string): value is AccountProvider {
  return (ACCOUNT_PROVIDERS as readonly string[]).includes(value);
}

export function providerOfType(type: unknown): AccountProvider | null {
  for (const p of ACCOUNT_PROVIDERS) if (PROVIDERS[p].type === type) return p;
  return null;
}
