import { z } from 'zod';
import type { ApiClient } from './api-client.js';
import type { TrayProfiles } from './tray-profiles.js';
import { countRecent } from './recent-anomalies.js';
import type { TrayAccount } from './tray-accounts.js';

/**
 * What the tray shows, read from the same endpoints the dashboard uses. A part the API cannot
 * answer (not running yet, not built, failing) is `null`, so the tray says "unavailable" instead of
 * going blank or stale.
 */
export interface AppStatus {
  proxy: ProxyStatus | null;
  bridge: BridgeStatus | null;
  /** Today's cost in USD in the usage timezone. */
  todayCost: number | null;
  anomalies: number | null;
  desktop: DesktopPrefs | null;
  /** The proxy's request log figures (issue 19); null when the stats endpoint did not answer. */
  traffic?: TrafficStatus | null;
  /** Profiles to switch between; absent when the source does not read them (null = unavailable). */
  profiles?: TrayProfiles | null;
  /** Subscription accounts (issue 29); absent when the source does not read them (null = unavailable). */
  accounts?: TrayAccount[] | null;
  /** Upstreams GET /api/proxy/upstreams marks `failing` (issue 30.4); absent when not read, null = unavailable. */
  failingUpstreams?: FailingUpstream[] | null;
}

export interface FailingUpstream {
  name: string;
  /** The last failure's status (0 when no answer came) and message. */
  lastError: { status: number; message: string | null } | null;
}

export interface TrafficStatus {
  /** Average over the last 5 minutes. */
  requestsPerMinute: number;
  /** 0–1 over the last 60 minutes; null without requests. */
  errorRate: number | null;
  /** Requests and failures in the last 60 minutes (the error rate's sample). */
  hourRequests: number;
  hourErrors: number;
  lastError: LastRequestError | null;
}

export interface LastRequestError {
  status: number;
  model: string | null;
  message: string | null;
  /** `HH:MM` in the usage timezone (the system zone when empty). */
  at: string;
}

export interface ProxyStatus {
  running: boolean;
  port?: number;
  sessionCount?: number;
}

export interface BridgeStatus {
  enabled: boolean;
  /** null when the bridge status endpoint did not answer. */
  daemonRunning: boolean | null;
  port?: number | null;
  authenticated?: boolean;
  tokenExpired?: boolean;
}

export interface DesktopPrefs {
  notifications: boolean;
  launchAtLogin: boolean;
  /** `desktop.error_rate_notice`: notify above this error rate (0–1); null = off. */
  errorRateNotice?: number | null;
}

export interface StatusSource {
  read(): Promise<AppStatus>;
}

const proxySchema = z.looseObject({ running: z.boolean(), port: z.number().optional(), sessionCount: z.number().optional() });
const bridgeSchema = z.looseObject({
  enabled: z.boolean(),
  daemonRunning: z.boolean(),
  port: z.number().nullish(),
  authenticated: z.boolean().optional(),
  tokenExpired: z.boolean().optional(),
});
const configSchema = z.looseObject({
  config: z.looseObject({
    usage: z.looseObject({ timezone: z.string() }).partial().optional(),
    cursor: z.looseObject({ enabled: z.boolean() }).partial().optional(),
    desktop: z.looseObject({ notifications: z.boolean(), launch_at_login: z.boolean(), error_rate_notice: z.number().nullable() }).partial().optional(),
  }),
});
const profilesSchema = z.looseObject({
  profiles: z.array(z.looseObject({ name: z.string(), model: z.string().nullable(), usesProxy: z.boolean() })),
  default: z.string().nullable(),
});
const accountsSchema = z.looseObject({
  accounts: z.array(z.looseObject({ provider: z.string(), label: z.string(), status: z.string(), lastError: z.string().optional() })),
});
const upstreamsSchema = z.looseObject({
  upstreams: z.array(
    z.looseObject({
      name: z.string(),
      failing: z.boolean(),
      lastError: z.looseObject({ status: z.number(), message: z.string().nullable() }).nullable(),
    }),
  ),
});
const presetsSchema = z.looseObject({ presets: z.array(z.looseObject({ name: z.string() })) });
const summarySchema = z.looseObject({ totalCost: z.number() });
const insightsSchema = z.looseObject({ anomalies: z.array(z.looseObject({ date: z.string() })) });
const statsSchema = z.looseObject({
  perMinute: z.array(z.looseObject({ requests: z.number(), errors: z.number() })),
  requestsPerMinute: z.number(),
  errorRate: z.number().nullable(),
  lastError: z
    .looseObject({
      time: z.number(),
      status: z.number(),
      modelRequested: z.string().nullish(),
      modelSent: z.string().nullish(),
      error: z.string().nullish(),
    })
    .nullable(),
});

export function createHttpStatusSource(api: ApiClient, now: () => Date = () => new Date()): StatusSource {
  return {
    async read() {
      const [proxy, bridge, config, profiles, accounts] = await Promise.all([
        getParsed(api, '/api/proxy/proxy-status', proxySchema),
        getParsed(api, '/api/bridge/status', bridgeSchema),
        getParsed(api, '/api/config', configSchema),
        readProfiles(api),
        getParsed(api, '/api/accounts', accountsSchema),
      ]);
      const today = dayIn(config?.config.usage?.timezone ?? '', now());
      const [summary, insights, stats, upstreams] = await Promise.all([
        getParsed(api, `/api/usage/summary?since=${today}&until=${today}`, summarySchema),
        getParsed(api, '/api/usage/insights', insightsSchema),
        getParsed(api, '/api/proxy/requests/stats', statsSchema),
        getParsed(api, '/api/proxy/upstreams', upstreamsSchema),
      ]);
      return {
        proxy: proxy ? { running: proxy.running, port: proxy.port, sessionCount: proxy.sessionCount } : null,
        bridge: bridgeStatus(bridge, config?.config.cursor?.enabled),
        todayCost: summary?.totalCost ?? null,
        anomalies: insights ? countRecent(insights.anomalies, today) : null,
        desktop: config
          ? {
              notifications: config.config.desktop?.notifications ?? true,
              launchAtLogin: config.config.desktop?.launch_at_login ?? false,
              errorRateNotice: config.config.desktop?.error_rate_notice ?? null,
            }
          : null,
        traffic: stats ? trafficStatus(stats, config?.config.usage?.timezone ?? '') : null,
        profiles,
        failingUpstreams: upstreams
          ? upstreams.upstreams.filter((u) => u.failing).map((u) => ({ name: u.name, lastError: u.lastError ? { status: u.lastError.status, message: u.lastError.message } : null }))
          : null,
        accounts: accounts ? accounts.accounts.map((a) => ({ provider: a.provider, label: a.label, status: a.status, ...(a.lastError ? { lastError: a.lastError } : {}) })) : null,
      };
    },
  };
}

/** The profile list and the default profile's preset names. */
async function readProfiles(api: ApiClient): Promise<TrayProfiles | null> {
  const list = await getParsed(api, '/api/profiles', profilesSchema);
  if (!list) return null;
  const presets = list.default ? await getParsed(api, `/api/settings/${encodeURIComponent(list.default)}/presets`, presetsSchema) : null;
  return {
    list: list.profiles.map((p) => ({ name: p.name, model: p.model, usesProxy: p.usesProxy })),
    default: list.default,
    presets: presets ? presets.presets.map((p) => p.name) : null,
  };
}

function bridgeStatus(status: z.output<typeof bridgeSchema> | null, enabledInConfig: boolean | undefined): BridgeStatus | null {
  if (status) {
    return {
      enabled: status.enabled,
      daemonRunning: status.daemonRunning,
      port: status.port,
      authenticated: status.authenticated,
      tokenExpired: status.tokenExpired,
    };
  }
  // The config still says whether the bridge belongs in the menu when its status cannot be read.
  return enabledInConfig === undefined ? null : { enabled: enabledInConfig, daemonRunning: null };
}

function trafficStatus(stats: z.output<typeof statsSchema>, timeZone: string): TrafficStatus {
  const last = stats.lastError;
  return {
    requestsPerMinute: stats.requestsPerMinute,
    errorRate: stats.errorRate,
    hourRequests: stats.perMinute.reduce((n, m) => n + m.requests, 0),
    hourErrors: stats.perMinute.reduce((n, m) => n + m.errors, 0),
    lastError: last
      ? { status: last.status, model: last.modelRequested ?? last.modelSent ?? null, message: last.error ?? null, at: clockIn(timeZone, new Date(last.time)) }
      : null,
  };
}

async function getParsed<T extends z.ZodType>(api: ApiClient, path: string, schema: T): Promise<z.output<T> | null> {
  const answer = await api.get(path);
  if (!answer.ok) return null;
  const parsed = schema.safeParse(answer.body);
  return parsed.success ? parsed.data : null;
}

/** `YYYYMMDD` of `date` in an IANA zone; an empty or unknown zone means the system zone. */
export function dayIn(timeZone: string, date: Date): string {
  let format: Intl.DateTimeFormat;
  try {
    format = new Intl.DateTimeFormat('en-US', { timeZone: timeZone || undefined, year: 'numeric', month: '2-digit', day: '2-digit' });
  } catch {
    format = new Intl.DateTimeFormat('en-US', { year: 'numeric', month: '2-digit', day: '2-digit' });
  }
  const part = (type: string) => format.formatToParts(date).find((p) => p.type === type)?.value ?? '';
  return `${part('year')}${part('month')}${part('day')}`;
}

/** `HH:MM` (24 h) of `date` in an IANA zone; an empty or unknown zone means the system zone. */
export function clockIn(timeZone: string, date: Date): string {
  const options: Intl.DateTimeFormatOptions = { hour: '2-digit', minute: '2-digit', hourCycle: 'h23' };
  let format: Intl.DateTimeFormat;
  try {
    format = new Intl.DateTimeFormat('en-GB', { ...options, timeZone: timeZone || undefined });
  } catch {
    format = new Intl.DateTimeFormat('en-GB', options);
  }
  return format.format(date);
}
