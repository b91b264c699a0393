import { z } from 'zod';

/**
 * One entry of `resources/providers.json` (decisions §4.2). `format` says what Claude Code can
 * reach directly (`anthropic`: the provider serves Anthropic's Messages API) and what needs the
 * local proxy (`openai`). `baseUrl` follows the proxy YAML's habit: with the version path for
 * `openai` (`…/v1`), without it for `anthropic`.
 */
const httpUrl = z.url({ protocol: /^https?$/ });

export const tierModelsSchema = z.object({
  default: z.string().min(1),
  opus: z.string().min(1),
  sonnet: z.string().min(1),
  haiku: z.string().min(1),
});

export const providerEntrySchema = z.object({
  /** Lower-case, used as the default profile and upstream name, so it must be a safe profile name. */
  id: z.string().regex(/^[a-z0-9][a-z0-9-]{0,39}$/, 'lower-case letters, digits and dashes'),
  name: z.string().min(1),
  format: z.enum(['anthropic', 'openai']),
  baseUrl: httpUrl,
  /** Regional alternatives (same format, usually a different key). */
  regions: z.array(z.object({ id: z.string().min(1), name: z.string().min(1), baseUrl: httpUrl })).optional(),
  /** Where to get a key; null for local servers that need none. */
  keyUrl: httpUrl.nullable(),
  keyRequired: z.boolean(),
  /** How Claude Code sends the key: Bearer (ANTHROPIC_AUTH_TOKEN, most gateways) or x-api-key (ANTHROPIC_API_KEY, Anthropic itself). */
  auth: z.enum(['bearer', 'x-api-key']).default('bearer'),
  models: tierModelsSchema,
  /** Whether the models list (`/models` for openai, `/v1/models` for anthropic) answers. */
  modelsEndpoint: z.boolean(),
  notes: z.string().optional(),
  source: z.object({
    url: httpUrl,
    /** YYYY-MM-DD the page was read. */
    read: z.iso.date(),
    /** The copy actually read, when it was not the provider's own page. */
    via: z.string().optional(),
  }),
});

export const catalogFileSchema = z.object({
  $comment: z.string().optional(),
  version: z.literal(1),
  providers: z.array(providerEntrySchema),
});

/** `{config_dir}/providers.json`: whole entries, added or replacing the built-in one with the same id. */
export const userCatalogFileSchema = z.object({
  providers: z.array(providerEntrySchema),
});

export type ProviderEntry = z.output<typeof providerEntrySchema>;
export type TierModels = z.output<typeof tierModelsSchema>;
export type ProviderFormat = ProviderEntry['format'];
