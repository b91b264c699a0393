/**
 * What each natively executed subscription provider serves, and the models its profile gives
 * Claude Code's tiers. Both the engine (routing, `/v1/models`) and the accounts service (the
 * account's model list, the profile made at first sign-in) read it, so it lives below both.
 *
 * Sources: reference/accounts.md §4, §5 and §9.4 (CCS 8.7.0's defaults `gpt-5.4` / `gpt-5.4-mini`),
 * CLIProxyAPI's codex catalog (models.json `codex-*` keys, August 2026), Copilot's model ids as its
 * `/models` lists them. The backend has no
 * public model list; a model missing here is still reachable by pinning (`/api/provider/codex/...`).
 */
export interface AccountProviderModels {
  models: readonly string[];
  tiers: { default: string; opus: string; sonnet: string; haiku: string };
}

/** Providers with a model list here: the native ones and the ones served through the managed CLIProxyAPI. */
export type ModelledProvider = 'codex' | 'ghcp' | 'agy' | 'kiro' | 'gemini';

export const ACCOUNT_MODELS: Readonly<Record<ModelledProvider, AccountProviderModels>> = {
  codex: {
    models: ['gpt-5.4', 'gpt-5.4-mini', 'gpt-5.3-codex', 'gpt-5.2', 'gpt-5.2-codex', 'gpt-5.1-codex-max', 'gpt-5.1-codex-mini'],
    tiers: { default: 'gpt-5.4', opus: 'gpt-5.4', sonnet: 'gpt-5.4', haiku: 'gpt-5.4-mini' },
  },
  // Copilot serves its `claude-*` models in Anthropic's own format (no translation, thinking
  // signatures intact), so Claude Code's tiers go there; the others through chat completions.
  // Models that Copilot serves only on /responses (gpt-5.x-codex) are left out for now.
  ghcp: {
    models: ['claude-sonnet-4.5', 'claude-opus-4.5', 'claude-haiku-4.5', 'gpt-5', 'gpt-5-mini', 'gpt-4.1', 'gpt-4o', 'gemini-2.5-pro', 'grok-code-fast-1'],
    tiers: { default: 'claude-sonnet-4.5', opus: 'claude-opus-4.5', sonnet: 'claude-sonnet-4.5', haiku: 'claude-haiku-4.5' },
  },
  // Served through the managed CLIProxyAPI (decisions §4.1); the engine forwards these ids to it.
  // Tiers: CCS 8.7.0's defaults (reference accounts §9.4). Lists: CLIProxyAPI's static catalogs
  // (reference §2 "Models", §3 "Models", §6 "Models"); the binary's own /v1/models may list more.
  agy: {
    models: ['gemini-3-pro-preview', 'gemini-3-flash-preview', 'gemini-2.5-flash', 'claude-sonnet-4-5', 'claude-sonnet-4-5-thinking', 'claude-opus-4-5-thinking'],
    tiers: { default: 'gemini-3-pro-preview', opus: 'gemini-3-pro-preview', sonnet: 'gemini-3-pro-preview', haiku: 'claude-sonnet-4-5' },
  },
  kiro: {
    models: ['kiro-claude-sonnet-4-6', 'kiro-claude-opus-4-7', 'kiro-claude-haiku-4-5'],
    tiers: { default: 'kiro-claude-sonnet-4-6', opus: 'kiro-claude-opus-4-7', sonnet: 'kiro-claude-sonnet-4-6', haiku: 'kiro-claude-haiku-4-5' },
  },
  gemini: {
    models: ['gemini-2.5-pro', 'gemini-2.5-flash', 'gemini-2.5-flash-lite', 'gemini-3-pro-preview', 'gemini-3.1-pro-preview', 'gemini-3-flash-preview', 'gemini-3.1-flash-lite-preview'],
    tiers: { default: 'gemini-2.5-pro', opus: 'gemini-2.5-pro', sonnet: 'gemini-2.5-pro', haiku: 'gemini-2.5-flash' },
  },
};
