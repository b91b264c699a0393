import type { TierModels } from './catalog-schema.js';

/**
 * The env of a profile made from a provider (decisions §2 keys): where Claude Code connects, with
 * which credential, and the tier models. `PROVIDER_` keys, which the launcher also exports as
 * `ANTHROPIC_`; the key goes to AUTH_TOKEN (Bearer) or API_KEY (x-api-key) as the provider expects.
 */
export function providerProfileEnv(input: { baseUrl: string; token: string; auth: 'bearer' | 'x-api-key'; models: TierModels }): Record<string, string> {
  return {
    PROVIDER_BASE_URL: input.baseUrl,
    ...(input.auth === 'x-api-key' ? { PROVIDER_API_KEY: input.token } : { PROVIDER_AUTH_TOKEN: input.token }),
    PROVIDER_MODEL: input.models.default,
    PROVIDER_DEFAULT_OPUS_MODEL: input.models.opus,
    PROVIDER_DEFAULT_SONNET_MODEL: input.models.sonnet,
    PROVIDER_DEFAULT_HAIKU_MODEL: input.models.haiku,
  };
}

/** The distinct model ids of the tiers, default first: what an upstream lists. */
export function tierModelList(models: TierModels): string[] {
  return [...new Set([models.default, models.opus, models.sonnet, models.haiku])];
}
