import { z } from 'zod';
import { E } from '../error-texts.js';
import { ApiError } from '../errors.js';
import { parseWith } from '../route.js';
import type { UsageParams } from '../../services/usage/usage-service.js';
import { isValidTimeZone, parseCompactDate } from '../../services/usage/zone-calendar.js';

export * from './usage-responses.js';

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

export const refreshQuery = z.object({ full: described('true: drop everything and rescan every file; default: an incremental rescan') });
const fullField = z.object({ full: z.enum(['true', 'false']).optional() });

/** `full=true|false` (default false), else 400 `Invalid refresh option`. */
export function refreshOptions(query: Record<string, unknown>): { full: boolean } {
  return { full: parseWith(fullField, { full: query.full }, E.invalidRefreshOption).full === 'true' };
}

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
