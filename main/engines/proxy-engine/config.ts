import fs from 'node:fs/promises';
import YAML from 'yaml';
import { z } from 'zod';
import { describeIssue } from '../../infra/zod-issue.js';
import { TOO_DEEP, valueTooDeep } from '../../infra/json-depth.js';
import { READ_LIMITS, readTextBounded } from '../../infra/bounded-read.js';

/**
 * `{config_dir}/proxy/config.yaml` (spec 2.6 + decisions §4): `server`, `auth`, `providers` and
 * the `upstreams` the engine routes to. Objects are loose: keys this version does not know
 * (a newer Switchboard's, or real CLIProxyAPI keys a user pasted) are kept and ignored.
 * The management API validates PUT /api/proxy/config.yaml with this same schema.
 */
const port = z.number().int().min(1).max(65535);

export const DEFAULT_PROXY_PORT = 8317;
export const DEFAULT_PROXY_HOST = '127.0.0.1';

export const serverSchema = z.looseObject({
  port: port.default(DEFAULT_PROXY_PORT),
  host: z.string().min(1).default(DEFAULT_PROXY_HOST),
});

export const authSchema = z.looseObject({
  /** Clients send it as `Authorization: Bearer` or `x-api-key`; absent = no client auth. */
  api_key: z.string().optional(),
  /** Guards the engine's management routes; absent = those routes answer 404. */
  management_secret: z.string().optional(),
});

export const providerSchema = z.looseObject({
  enabled: z.boolean().default(true),
  oauth_port: port.optional(),
});

export const upstreamSchema = z.looseObject({
  /** Also the `owned_by` of its models in /v1/models. */
  name: z.string().min(1),
  format: z.enum(['openai', 'anthropic']),
  /** openai: includes the version path (`https://api.openai.com/v1`); anthropic: does not. */
  base_url: z.url(),
  /** One key, or several used round-robin. */
  api_key: z.union([z.string(), z.array(z.string()).min(1)]).optional(),
  models: z.array(z.string().min(1)).default([]),
});

/** How traffic is routed (issue 6): key cooldown after a 429/5xx and bounded upstream waits. */
export const routingSchema = z.looseObject({
  /**
   * How the signed-in accounts of one provider share its traffic (decisions §4.1): take turns
   * (`round-robin`), or drain the first free account in priority order before the next (`fill-first`).
   */
  account_strategy: z.enum(['round-robin', 'fill-first']).default('round-robin'),
  /** Requests of one client session stay on one account while it is free, so prompt caches survive. */
  session_affinity: z.boolean().default(true),
  /** A key that got 429 or 5xx is skipped this long (a longer Retry-After wins, up to 10 min). */
  cooldown_seconds: z.number().min(0).default(30),
  connect_timeout_seconds: z.number().positive().default(10),
  /** Until response headers (and, for streams, the first chunk) arrive; also the idle limit between chunks. */
  first_byte_timeout_seconds: z.number().positive().default(300),
  /**
   * error-*.log files kept in logs/ (newest first). Unset = the app's `proxy.error_log_keep`
   * (default 100); either way capped at 50 MiB in all.
   */
  error_logs_max_files: z.number().int().min(1).optional(),
});

export const proxyConfigSchema = z.looseObject({
  server: serverSchema.prefault({}),
  auth: authSchema.prefault({}),
  providers: z.record(z.string(), providerSchema.prefault({})).default({}),
  upstreams: z.array(upstreamSchema).default([]),
  /** Client model name → the model id an upstream lists, e.g. `sonnet: claude-sonnet-4-5`. */
  model_aliases: z.record(z.string(), z.string().min(1)).default({}),
  routing: routingSchema.prefault({}),
});

export type ProxyConfig = z.output<typeof proxyConfigSchema>;
export type Upstream = z.output<typeof upstreamSchema>;

/** The config file is missing, not YAML, or has a known key of the wrong type. */
export class ProxyConfigError extends Error {}

/** Parses YAML text and validates it; `source` names the file in messages. */
export function parseProxyConfig(text: string, source = 'config.yaml'): ProxyConfig {
  const raw = readYaml(text, source);
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
    throw new ProxyConfigError(`${source}: the top level must be a mapping`);
  }
  const parsed = proxyConfigSchema.safeParse(raw);
  if (!parsed.success) throw new ProxyConfigError(`${source}: ${describeIssue(parsed.error)}`);
  return parsed.data;
}

/**
 * The document as plain data. Every error of the YAML library is a ProxyConfigError: syntax errors,
 * an undefined alias, an alias bomb (more than MAX_ALIASES resolved aliases), and a stack overflow
 * on absurd nesting. Data nested deeper than MAX_JSON_DEPTH is refused like deep JSON.
 */
function readYaml(text: string, source: string): unknown {
  let raw: unknown;
  try {
    const doc = YAML.parseDocument(text, { prettyErrors: true });
    if (doc.errors.length > 0) {
      const first = doc.errors[0]!;
      const line = first.linePos?.[0]?.line;
      throw new ProxyConfigError(`${source}${line ? ` line ${line}` : ''}: ${first.message.split('\n')[0]}`);
    }
    raw = doc.toJS({ maxAliasCount: MAX_ALIASES }) ?? {};
  } catch (err) {
    if (err instanceof ProxyConfigError) throw err;
    throw new ProxyConfigError(`${source}: ${(err as Error).message.split('\n')[0]}`);
  }
  if (valueTooDeep(raw)) throw new ProxyConfigError(`${source}: ${TOO_DEEP}`);
  return raw;
}

/** Resolved aliases a config may use; a real config uses a few. */
const MAX_ALIASES = 100;

export async function loadProxyConfig(file: string): Promise<ProxyConfig> {
  let text: string;
  try {
    text = await readTextBounded(file, READ_LIMITS.config, file);
  } catch (err) {
    throw new ProxyConfigError(`cannot read ${file}: ${(err as Error).message}`);
  }
  return parseProxyConfig(text, file);
}

/** The keys of an upstream as a list (empty when the upstream needs none). */
export function upstreamKeys(upstream: Upstream): string[] {
  if (upstream.api_key === undefined) return [];
  return Array.isArray(upstream.api_key) ? upstream.api_key : [upstream.api_key];
}
