import { z } from 'zod';

/** GET /api/proxy/upstreams: each upstream with its health over the last hour (issue 30, point 4). */
export const upstreamHealthResponse = z.object({
  upstreams: z.array(
    z.object({
      name: z.string(),
      format: z.enum(['openai', 'anthropic']),
      baseUrl: z.string(),
      models: z.array(z.string()),
      keyCount: z.int(),
      requests: z.int(),
      errors: z.int(),
      successRate: z.number().nullable(),
      medianLatencyMs: z.number().nullable(),
      lastError: z.object({ status: z.int(), at: z.int(), message: z.string().nullable() }).nullable(),
      failing: z.boolean(),
      coolingKeys: z.array(z.object({ index: z.int(), until: z.number() })),
    }),
  ),
  since: z.int(),
  until: z.int(),
  cooldownSeconds: z.number(),
});
