import { z } from 'zod';
import { E } from '../error-texts.js';
import { ApiError } from '../errors.js';
import { parseWith } from '../route.js';
import type { UsageParams } from '../../services/usage/usage-service.js';
import { isValidTimeZone, parseCompactDate } from '../../services/usage/zone-calendar.js';

/**
 * Query parameters as documented (OpenAPI). They are accepted as given and checked one by one
 * in `usageParams`, because each has its own error text (decisions §5).
 */
const described = (description: string) => z.unknown().optional().describe(description);

export const usageQuery = z.object({
  since: described('First local day, YYYYMMDD (inclusive)'),
  until: described('Last local day, YYYYMMDD (inclusive)'),
  tz: described('IANA time zone for grouping; default usage.timezone from config.yaml, else the system zone'),
});

export const sessionsQuery = usageQuery.extend({
  limit: described('Page size, 1-1000, default 50'),
  offset: described('Sessions to skip, default 0'),
});

const compactDate = z
  .string()
  .refine((s) => parseCompactDate(s) !== null, 'expected a real calendar date as YYYYMMDD')
  .transform((s) => parseCompactDate(s)!)
  .optional();
const zone = z.string().refine(isValidTimeZone, 'expected an IANA time zone such as Europe/Paris').optional();
const limit = z.string().regex(/^\d{1,4}$/, 'expected an integer').transform(Number).pipe(z.int().min(1).max(1000)).optional();
const offset = z.string().regex(/^\d{1,15}$/, 'expected an integer').transform(Number).optional();
// Built once: constructing a zod object schema costs far more than running it.
const dateFields = z.object({ since: compactDate, until: compactDate });
const zoneField = z.object({ tz: zone });
const pageFields = z.object({ limit, offset });

/** since/until (400 `Invalid date format…`, `Invalid date range`) and tz (400 `Invalid timezone`). */
export function usageParams(query: Record<string, unknown>): UsageParams {
  const { since, until } = parseWith(dateFields, { since: query.since, until: query.until }, E.invalidDate);
  if (since !== undefined && until !== undefined && since > until) throw new ApiError(400, E.invalidDateRange, 'since is after until');
  const { tz } = parseWith(zoneField, { tz: query.tz }, E.invalidTimezone);
  return { since: since ?? null, until: until ?? null, ...(tz !== undefined ? { tz } : {}) };
}

/** limit 1-1000 (default 50), offset ≥ 0 (default 0), else 400 `Invalid pagination parameters`. */
export function pagination(query: Record<string, unknown>): { limit: number; offset: number } {
  const parsed = parseWith(pageFields, { limit: query.limit, offset: query.offset }, E.invalidPagination);
  return { limit: parsed.limit ?? 50, offset: parsed.offset ?? 0 };
}

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
});

export const dailyResponse = z.object({
  daily: z.array(
    z.object({
      date: z.string(),
      ...totals,
      modelsUsed: z.array(z.string()),
      modelBreakdown: z.record(z.string(), z.object({ inputTokens: z.int(), outputTokens: z.int(), cost: z.number() })),
    }),
  ),
});

export const hourlyResponse = z.object({ hourly: z.array(z.object({ hour: z.string(), ...totals, modelsUsed: z.array(z.string()) })) });

export const monthlyResponse = z.object({ monthly: z.array(z.object({ month: z.string(), ...totals })) });

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
});

export const sessionsResponse = z.object({
  sessions: z.array(
    z.object({
      sessionId: z.string(),
      projectPath: z.string(),
      lastActivity: z.string(),
      inputTokens: z.int(),
      outputTokens: z.int(),
      cost: z.number(),
      modelsUsed: z.array(z.string()),
      version: z.string().nullable(),
    }),
  ),
  total: z.int(),
  limit: z.int(),
  offset: z.int(),
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
});
