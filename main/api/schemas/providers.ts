import { z } from 'zod';
import { providerEntrySchema, tierModelsSchema } from '../../services/providers/catalog-schema.js';

/** decisions §4.2 provider routes. `timeoutMs` (not in the contract) bounds a connection test; docs/providers.md. */
const httpUrl = z.url({ protocol: /^https?$/ });
const timeoutMs = z.int().min(100).max(120_000).optional();
const apiKey = z.string().trim().min(1).max(4096).optional();

export const catalogResponse = z.object({
  providers: z.array(providerEntrySchema.extend({ origin: z.enum(['builtin', 'user']) })),
});

export const addProviderBody = z.object({
  template: z.string().min(1),
  apiKey,
  name: z.string().min(1).optional(),
  baseUrl: httpUrl.optional(),
  models: tierModelsSchema.partial().optional(),
  via: z.enum(['direct', 'proxy']).optional(),
  timeoutMs,
});

export const connectionResult = z.object({
  ok: z.boolean(),
  status: z.int().nullable(),
  latencyMs: z.int(),
  message: z.string(),
  models: z.array(z.string()).optional(),
});

export const addProviderResponse = z.object({
  profile: z.object({ name: z.string(), path: z.string(), baseUrl: z.string(), via: z.enum(['direct', 'proxy']), models: tierModelsSchema }),
  upstream: z.object({ name: z.string(), format: z.enum(['anthropic', 'openai']), baseUrl: z.string(), models: z.array(z.string()) }).optional(),
  proxy: z.object({ running: z.boolean(), restarted: z.boolean(), error: z.string().optional() }).optional(),
  test: connectionResult,
});

export const testProviderBody = z.object({
  template: z.string().min(1).optional(),
  baseUrl: httpUrl.optional(),
  format: z.enum(['anthropic', 'openai']).optional(),
  apiKey,
  model: z.string().min(1).optional(),
  timeoutMs,
});

export const testProfileBody = z.object({ timeoutMs });
