import { z } from 'zod';

// Usage response shapes (spec 2.7 and 4.5), apart from the query parsing in usage.ts so that the
// dashboard can take its types from them: this file needs nothing but zod.

const agentShare = z.object({
  inputTokens: z.int(),
  outputTokens: z.int(),
  cacheReadTokens: z.int(),
  cacheWriteTokens: z.int(),
  /** ccusage's total for the agent: the four kinds plus extra tokens it counts (reasoning, thoughts). */
  totalTokens: z.int(),
  cost: z.number(),
});

/** Decisions §5.1: the agents with usage in a period; their parts only on `by=agent`. */
const agentParts = {
  agents: z.array(z.string()),
  agentBreakdown: z.record(z.string(), agentShare).optional(),
};

const totals = {
  inputTokens: z.int(),
  outputTokens: z.int(),
  cacheReadTokens: z.int(),
  cacheWriteTokens: z.int(),
  cost: z.number(),
};

export const summaryResponse = z.object({
  totalTokens: z.int(),
  totalCost: z.number(),
  inputTokens: z.int(),
  outputTokens: z.int(),
  cacheReadTokens: z.int(),
  cacheWriteTokens: z.int(),
  dailyAverage: z.object({ tokens: z.int(), cost: z.number() }),
  dateRange: z.object({ from: z.string().nullable(), to: z.string().nullable() }),
  modelsUsed: z.array(z.string()),
  unpricedModels: z.array(z.string()),
  ...agentParts,
});

export const dailyResponse = z.object({
  daily: z.array(
    z.object({
      date: z.string(),
      ...totals,
      modelsUsed: z.array(z.string()),
      modelBreakdown: z.record(z.string(), z.object({ inputTokens: z.int(), outputTokens: z.int(), cost: z.number() })),
      ...agentParts,
    }),
  ),
});

export const hourlyResponse = z.object({ hourly: z.array(z.object({ hour: z.string(), ...totals, modelsUsed: z.array(z.string()), ...agentParts })) });

export const monthlyResponse = z.object({ monthly: z.array(z.object({ month: z.string(), ...totals, ...agentParts })) });

export const modelsResponse = z.object({
  models: z.array(z.object({ model: z.string(), ...totals, percentage: z.number(), ioRatio: z.number().nullable() })),
  totalCost: z.number(),
});

export const insightsResponse = z.object({
  anomalies: z.array(
    z.object({
      type: z.enum(['cost_spike', 'high_input', 'high_io_ratio', 'high_cache_read']),
      date: z.string(),
      value: z.number(),
      threshold: z.number(),
      message: z.string(),
    }),
  ),
  thresholds: z.object({ highInput: z.int(), highIoRatio: z.number(), costSpikeMultiplier: z.number(), highCacheRead: z.int() }),
  baseline: z.object({ averageDailyCost: z.number(), days: z.int(), since: z.string().nullable(), until: z.string().nullable() }),
});

export const sessionsResponse = z.object({
  sessions: z.array(
    z.object({
      sessionId: z.string(),
      projectPath: z.string(),
      lastActivity: z.string(),
      inputTokens: z.int(),
      outputTokens: z.int(),
      cacheReadTokens: z.int(),
      cacheWriteTokens: z.int(),
      totalTokens: z.int(),
      cost: z.number(),
      modelsUsed: z.array(z.string()),
      version: z.string().nullable(),
      agent: z.string(),
    }),
  ),
  total: z.int(),
  limit: z.int(),
  offset: z.int(),
});

export const projectsResponse = z.object({
  projects: z.array(
    z.object({
      projectPath: z.string(),
      ...totals,
      totalTokens: z.int(),
      sessions: z.int(),
      lastActivity: z.string(),
      topModel: z.string().nullable(),
      agent: z.string(),
    }),
  ),
});

export const refreshResponse = z.object({ success: z.literal(true), message: z.string(), timestamp: z.int() });

export const statusResponse = z.object({
  cached: z.boolean(),
  lastFetch: z.int().nullable(),
  lastFetchHuman: z.string().nullable(),
  cacheAge: z.int().nullable(),
  cacheAgeHuman: z.string().nullable(),
  files: z.int().nullable(),
  malformedLines: z.int().nullable(),
  oversizedLines: z.int().nullable(),
  scanning: z.boolean(),
  progress: z.object({ filesDone: z.int(), filesTotal: z.int(), bytesDone: z.int(), bytesTotal: z.int() }).nullable(),
  /** Why the last scan failed (a logs folder that cannot be read, say); null once one succeeds. */
  lastError: z.string().nullable(),
  /** Where the agent's transcripts are read from (`{agentDir}/projects`). */
  transcriptsDir: z.string(),
});

export const agentsResponse = z.object({
  agents: z.array(
    z.object({
      id: z.string(),
      name: z.string(),
      supported: z.boolean(),
      enabled: z.boolean(),
      /** Where the agent's logs are looked for (config.yaml usage.agents.<id>.dirs, its override variable, else its defaults). */
      dirs: z.array(z.string()),
      /** One of `dirs` exists. */
      found: z.boolean(),
      files: z.int(),
      records: z.int(),
      lastActivity: z.string().nullable(),
      /** Why an agent is not supported. */
      reason: z.string().optional(),
    }),
  ),
});
