import { Router, type Request, type Response } from 'express';
import type { AnswerKind, UsageParams } from '../services/usage/usage-service.js';
import { UsageFetchError, UsageRangeError, UsageUnavailableError } from '../services/usage/usage-errors.js';
import { MAX_HOURLY_DAYS } from '../services/usage/usage-views.js';
import { E } from './error-texts.js';
import { ApiError } from './errors.js';
import { routeOn } from './route.js';
import type { RouterDeps } from './routers.js';
import { shaped, shapedList } from './usage-shape.js';
import {
  agentsResponse,
  breakdownBy,
  dailyResponse,
  hourlyResponse,
  insightsResponse,
  modelsResponse,
  monthlyResponse,
  pagination,
  projectsResponse,
  sessionSelection,
  refreshOptions,
  refreshQuery,
  refreshResponse,
  sessionsQuery,
  sessionsResponse,
  statusResponse,
  summaryResponse,
  usageParams,
  usageQuery,
} from './schemas/usage.js';

/** Usage analytics (spec 4.5, decisions §5). */
export function createUsageRouter({ services, registry, hot }: RouterDeps): Router {
  const router = Router();
  const route = routeOn(router, registry, 'usage');
  const usage = services.usage;

  /** Sends a read's answer and, while the service says it holds, remembers it by URL (hot-answers.ts). */
  async function read<T extends object>(
    kind: AnswerKind,
    req: Request,
    res: Response,
    params: UsageParams,
    call: () => Promise<T>,
    wrap?: (answer: T) => unknown,
    variant = '',
  ): Promise<undefined> {
    const stamp = usage.answersStamp();
    const text = sendJson(res, await answer(call), wrap, variant);
    // A scan that finished while this was answered may have changed the data: then do not remember.
    const reuse = hot && usage.answersStamp() === stamp ? usage.reuse(kind, params) : null;
    if (reuse) hot!.remember(req.originalUrl, text, stamp, reuse.until, reuse.lasting);
    return undefined;
  }

  route({
    method: 'get',
    path: '/api/usage/summary',
    summary: 'Token and cost totals, daily average, date range, models used and unpriced models',
    query: usageQuery,
    response: summaryResponse,
    handler: ({ query, req, res }) => {
      const p = usageParams(query);
      const by = breakdownBy(query);
      return read('summary', req, res, p, () => usage.summary(p), (s) => shaped(s, by), variantOf(by));
    },
  });
  route({
    method: 'get',
    path: '/api/usage/daily',
    summary: 'One entry per local day with requests, ascending, with a per-model breakdown',
    query: usageQuery,
    response: dailyResponse,
    handler: ({ query, req, res }) => {
      const p = usageParams(query);
      const by = breakdownBy(query);
      return read('daily', req, res, p, () => usage.daily(p), (daily) => ({ daily: shapedList(daily, by) }), variantOf(by));
    },
  });
  route({
    method: 'get',
    path: '/api/usage/hourly',
    summary: `Every local hour of the window, quiet hours as zeros (default: the last 24 hours; at most ${MAX_HOURLY_DAYS} days)`,
    query: usageQuery,
    response: hourlyResponse,
    handler: ({ query, req, res }) => {
      const p = usageParams(query);
      const by = breakdownBy(query);
      return read('hourly', req, res, p, () => usage.hourly(p), (hourly) => ({ hourly: shapedList(hourly, by) }), variantOf(by));
    },
  });
  route({
    method: 'get',
    path: '/api/usage/monthly',
    summary: 'One entry per local month, ascending',
    query: usageQuery,
    response: monthlyResponse,
    handler: ({ query, req, res }) => {
      const p = usageParams(query);
      const by = breakdownBy(query);
      return read('monthly', req, res, p, () => usage.monthly(p), (monthly) => ({ monthly: shapedList(monthly, by) }), variantOf(by));
    },
  });
  route({
    method: 'get',
    path: '/api/usage/models',
    summary: 'Per-model totals by cost, with cost share and input/output ratio',
    query: usageQuery,
    response: modelsResponse,
    handler: ({ query, req, res }) => {
      const p = usageParams(query);
      return read('models', req, res, p, () => usage.models(p));
    },
  });
  route({
    method: 'get',
    path: '/api/usage/insights',
    summary: 'Anomalies per day (cost spike, high input, high input/output ratio, high cache reads), newest first',
    query: usageQuery,
    response: insightsResponse,
    handler: ({ query, req, res }) => {
      const p = usageParams(query);
      return read('insights', req, res, p, () => usage.insights(p));
    },
  });
  route({
    method: 'get',
    path: '/api/usage/sessions',
    summary: 'Sessions with requests in the window, newest activity first (or by sort/order), filtered by project/model, paged',
    query: sessionsQuery,
    response: sessionsResponse,
    handler: ({ query, req, res }) => {
      const p = usageParams(query);
      const { limit, offset } = pagination(query);
      const select = sessionSelection(query);
      return read('sessions', req, res, p, () => usage.sessions(p, limit, offset, select));
    },
  });
  route({
    method: 'get',
    path: '/api/usage/projects',
    summary: 'Per project (cwd): tokens by kind, cost, sessions, last activity and top model, by cost',
    query: usageQuery,
    response: projectsResponse,
    handler: ({ query, req, res }) => {
      const p = usageParams(query);
      return read('projects', req, res, p, () => usage.projects(p), (projects) => ({ projects }));
    },
  });
  route({
    method: 'post',
    path: '/api/usage/refresh',
    summary: 'Waits for an incremental rescan of the transcripts (full=true: drops everything and rescans every file)',
    query: refreshQuery,
    response: refreshResponse,
    handler: async ({ query }) => {
      const { full } = refreshOptions(query);
      const { timestamp } = await answer(() => usage.refresh(full));
      return { success: true, message: 'Usage data refreshed', timestamp };
    },
  });
  route({
    method: 'get',
    path: '/api/usage/agents',
    summary: 'Every coding agent looked for: supported or not (and why), enabled, where, files and records found, last activity',
    response: agentsResponse,
    handler: async () => ({ agents: await answer(() => usage.agents()) }),
  });
  route({
    method: 'get',
    path: '/api/usage/status',
    summary: 'Age of the usage cache; null values when nothing is cached',
    response: statusResponse,
    handler: () => usage.status(),
  });
  return router;
}

const serialized = new WeakMap<object, Map<string, string>>();

const variantOf = (byAgent: boolean) => (byAgent ? 'by=agent' : '');

/**
 * The service hands out the same memoised object until its data changes, so its JSON text is kept
 * beside it: a cached endpoint under load then costs a map lookup instead of a stringify. One
 * object can be shown several ways (`variant`: with or without the agent breakdown), one text each.
 */
function sendJson<T extends object>(res: Response, answer: T, wrap: (answer: T) => unknown = (a) => a, variant = ''): string {
  let texts = serialized.get(answer);
  if (texts === undefined) serialized.set(answer, (texts = new Map()));
  let text = texts.get(variant);
  if (text === undefined) {
    text = JSON.stringify(wrap(answer));
    texts.set(variant, text);
  }
  res.status(200).type('application/json').send(text);
  return text;
}

/** The service's failures as the spec's statuses: 503 without any cache, 500 otherwise. */
async function answer<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (err) {
    if (err instanceof UsageUnavailableError) throw new ApiError(503, E.cacheUnavailable, err.message);
    if (err instanceof UsageFetchError) throw new ApiError(500, E.usageFetchFailed, err.message);
    if (err instanceof UsageRangeError) throw new ApiError(400, E.invalidDateRange, `an hourly window spans at most ${MAX_HOURLY_DAYS} days`);
    throw err;
  }
}
