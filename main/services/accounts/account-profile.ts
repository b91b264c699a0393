import type { ProfilesService } from '../profiles/profiles-service.js';
import type { SettingsService } from '../settings/settings-service.js';
import { PROVIDERS, type AccountProvider } from './providers.js';

/**
 * decisions §4.1: the first sign-in of a provider creates the profile `<provider>`, routed through
 * the proxy with the provider's tier models, unless a profile of that name exists (it is never
 * touched then: the user may have made it their own).
 */
export async function createAccountProfile(provider: AccountProvider, deps: { settings: SettingsService; profiles: ProfilesService }): Promise<boolean> {
  const tiers = PROVIDERS[provider].tiers;
  if (!tiers) return false;
  if ((await deps.settings.listProfiles()).some((p) => p.name === provider)) return false;
  await deps.profiles.routeThroughProxy(provider);
  const current = await deps.settings.get(provider, { raw: true });
  const env = { ...(current.settings.env as Record<string, string> | undefined) };
  env.PROVIDER_MODEL = tiers.default;
  env.PROVIDER_DEFAULT_OPUS_MODEL = tiers.opus;
  env.PROVIDER_DEFAULT_SONNET_MODEL = tiers.sonnet;
  env.PROVIDER_DEFAULT_HAIKU_MODEL = tiers.haiku;
  await deps.settings.put(provider, { settings: { ...current.settings, env }, expectedMtime: current.mtime });
  deps.profiles.announce('account', [provider]);
  return true;
}
