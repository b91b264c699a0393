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
  configMtime: z.int(),
});

/** PUT /api/proxy/upstreams: the upstream form (issue 30, point 5). */
export const upstreamFormBody = z.object({
  upstreams: z.array(
    z.object({
      name: z.string().trim().min(1).max(64),
      previousName: z.string().min(1).optional(),
      format: z.enum(['openai', 'anthropic']),
      baseUrl: z.url({ protocol: /^https?$/ }),
      models: z.array(z.string().trim().min(1)).max(200),
      /** Left out: keep the saved keys. [] removes them. */
      apiKeys: z.array(z.string().trim().min(1)).max(50).optional(),
    }),
  ),
  expectedMtime: z.int().optional(),
});

export const upstreamFormResponse = z.object({
  success: z.literal(true),
  mtime: z.int(),
  backupPath: z.string().optional(),
  upstreams: z.array(z.string()),
  proxy: z.object({ running: z.boolean(), restarted: z.boolean(), error: z.string().optional() }),
});
