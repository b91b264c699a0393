import { z } from 'zod';
import { E } from '../error-texts.js';
import { ApiError } from '../errors.js';
import { parseWith } from '../route.js';
import type { UsageParams } from '../../services/usage/usage-service.js';
import { AGENT_IDS } from '../../services/usage/agents/registry.js';
import { COST_MODES } from '../../services/usage/cost-mode.js';
import { SESSION_SORTS, type SessionQuery } from '../../services/usage/session-query.js';
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
  mode: described('Cost mode: auto (a logged costUSD, else the price table), calculate, display; default usage.cost_mode'),
  agent: described('One coding agent (claude, codex, gemini, opencode, amp, …) or all (default)'),
  by: described('agent: add agentBreakdown (per-agent tokens and cost) to daily, hourly, monthly entries and the summary'),
});

export const sessionsQuery = usageQuery.extend({
  limit: described('Page size, 1-1000, default 50'),
  offset: described('Sessions to skip, default 0'),
  sort: described('lastActivity (default), cost or tokens'),
  order: described('desc (default) or asc'),
  project: described('Only sessions whose projectPath is exactly this'),
  model: described('Only sessions that used this model (as listed)'),
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
const modeField = z.object({ mode: z.enum(COST_MODES).optional() });
const filterText = z.string().min(1, 'expected a non-empty value').max(4096).optional();
const sessionFields = z.object({ sort: z.enum(SESSION_SORTS).optional(), order: z.enum(['asc', 'desc']).optional(), project: filterText, model: filterText });

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
  const { mode } = parseWith(modeField, { mode: query.mode }, E.invalidCostMode);
  const agent = agentOf(query.agent);
  return { since: since ?? null, until: until ?? null, ...(tz !== undefined ? { tz } : {}), ...(mode !== undefined ? { mode } : {}), ...(agent !== undefined ? { agent } : {}) };
}

/** `agent=<id>|all` (decisions §5.1), else 400 `Unknown agent` listing the ids. `all` = every agent. */
function agentOf(value: unknown): string | undefined {
  if (value === undefined || value === 'all') return undefined;
  if (typeof value === 'string' && AGENT_IDS.includes(value)) return value;
  throw new ApiError(400, E.unknownAgent, `Agent must be one of: ${[...AGENT_IDS, 'all'].join(', ')}`);
}

/** `by=agent` adds `agentBreakdown`; anything else is 400 `Invalid breakdown`. */
export function breakdownBy(query: Record<string, unknown>): boolean {
  if (query.by === undefined) return false;
  if (query.by === 'agent') return true;
  throw new ApiError(400, E.invalidBreakdown, 'by must be agent');
}

/** sort, order, project, model on sessions, else 400 `Invalid session filter` naming the field. */
export function sessionSelection(query: Record<string, unknown>): SessionQuery {
  const parsed = parseWith(sessionFields, { sort: query.sort, order: query.order, project: query.project, model: query.model }, E.invalidSessionFilter);
  const out: SessionQuery = {};
  if (parsed.sort !== undefined) out.sort = parsed.sort;
  if (parsed.order !== undefined) out.order = parsed.order;
  if (parsed.project !== undefined) out.project = parsed.project;
  if (parsed.model !== undefined) out.model = parsed.model;
  return out;
}

/** limit 1-1000 (default 50), offset ≥ 0 (default 0), else 400 `Invalid pagination parameters`. */
export function pagination(query: Record<string, unknown>): { limit: number; offset: number } {
  const parsed = parseWith(pageFields, { limit: query.limit, offset: query.offset }, E.invalidPagination);
  return { limit: parsed.limit ?? 50, offset: parsed.offset ?? 0 };
}
