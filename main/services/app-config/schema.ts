import { z } from 'zod';
import { isOrigin } from '../../infra/origin-overrides.js';

/**
 * The whole `{config_dir}/config.yaml` (decisions §3). Every section has defaults, so an
 * empty file reads as a complete config. Unknown keys are kept (loose objects) so a newer
 * version's settings survive an older version's write.
 */
const port = z.number().int().min(1).max(65535);

/** Release feed of the CLIProxyAPIPlus fork that installed binaries follow (reference: cliproxy §8). */
export const CLIPROXY_PLUS_FEED_URL = 'https://api.github.com/repos/kaitranntt/CLIProxyAPIPlus/releases/latest';

export const proxyAuthSchema = z.looseObject({
  api_key: z.string().optional(),
  management_secret: z.string().optional(),
  defaults: z
    .looseObject({ api_key: z.string().optional(), management_secret: z.string().optional() })
    .optional(),
});

export const quotaEndpointsSchema = z.looseObject({
  agy: z.url().default('https://cloudcode-pa.googleapis.com'),
  gemini: z.url().default('https://cloudcode-pa.googleapis.com'),
  codex: z.url().default('https://chatgpt.com'),
  ghcp: z.url().default('https://api.github.com'),
  kiro: z.url().default('https://codewhisperer.us-east-1.amazonaws.com'),
  iflow: z.url().default('https://iflow.cn'),
});

export const proxySectionSchema = z.looseObject({
  /** Path of an installed CLIProxyAPI-compatible binary; empty = the built-in engine. */
  binary_path: z.string().default(''),
  /** Version of the external binary, for the update check (it cannot be asked). */
  binary_version: z.string().default(''),
  update_feed_url: z.url().default(CLIPROXY_PLUS_FEED_URL),
  keep_running_on_quit: z.boolean().default(false),
  auto_start: z.boolean().default(false),
  /** error-*.log files the proxy keeps (also capped at 50 MiB in all); decisions §4 said 10. */
  error_log_keep: z.number().int().min(1).max(10_000).default(100),
  quota_endpoints: quotaEndpointsSchema.prefault({}),
  auth: proxyAuthSchema.prefault({}),
  /** Managed CLIProxyAPI (decisions §4.1): backend and an optional version pin. */
  cliproxy: z
    .looseObject({
      backend: z.enum(['original', 'plus']).default('original'),
      pin: z.string().nullable().default(null),
    })
    .prefault({}),
});

export const bridgeSectionSchema = z.looseObject({
  enabled: z.boolean().default(false),
  port: port.default(20129),
  auto_start: z.boolean().default(false),
  ghost_mode: z.boolean().default(true),
  model: z.string().default('claude-4.5-sonnet'),
  opus_model: z.string().default(''),
  sonnet_model: z.string().default(''),
  haiku_model: z.string().default(''),
  upstream_url: z.url().default('https://api2.cursor.sh'),
  /** Longest upstream silence the daemon waits out (before headers, between chunks); unset = 300 s. */
  upstream_timeout_seconds: z.number().positive().max(3600).optional(),
});

export const usageSectionSchema = z.looseObject({
  /** IANA zone used to group by day/hour; empty = the system zone. */
  timezone: z.string().default(''),
  /** ccusage's --mode: auto (a logged costUSD, else the price table), calculate (the table), display (logged only). */
  cost_mode: z.enum(['auto', 'calculate', 'display']).default('auto'),
  /** Per coding agent (decisions §5.1): on/off, and folders that replace its default locations. */
  agents: z
    .record(
      z.string(),
      z.looseObject({
        enabled: z.boolean().default(true),
        dirs: z.array(z.string().min(1)).optional(),
      }),
    )
    .default({}),
});

export const agentToolSectionSchema = z.looseObject({
  binary: z.string().min(1).default('droid'),
  settings_path: z.string().min(1).default('~/.factory/settings.json'),
});

/** The coding agent `switchboard run` starts (issue 18): a name searched on PATH, or an absolute path. */
export const agentSectionSchema = z.looseObject({
  binary: z.string().min(1).default('claude'),
});

export const desktopSectionSchema = z.looseObject({
  launch_at_login: z.boolean().default(false),
  notifications: z.boolean().default(true),
  /** Notify when the proxy's error rate over the last hour reaches this share (0–1); null or absent = off. */
  error_rate_notice: z.number().gt(0).max(1).nullable().optional(),
});

/**
 * `network.origin_overrides` (decisions §4.1): exact origin → origin for every outbound base URL
 * (sign-in, refresh, quota, executors, release feeds), for tests and mirrors.
 */
const originText = z.string().refine(isOrigin, { message: 'must be an origin: scheme://host[:port], nothing after it' });
export const networkSectionSchema = z.looseObject({
  origin_overrides: z.record(originText, originText).default({}),
});

export const appConfigSchema = z.looseObject({
  /** Name of the default profile; removed by DELETE /api/accounts/reset-default. */
  default: z.string().optional(),
  proxy: proxySectionSchema.prefault({}),
  cursor: bridgeSectionSchema.prefault({}),
  usage: usageSectionSchema.prefault({}),
  agent_tool: agentToolSectionSchema.prefault({}),
  agent: agentSectionSchema.prefault({}),
  desktop: desktopSectionSchema.prefault({}),
  network: networkSectionSchema.prefault({}),
});

export type AppConfig = z.output<typeof appConfigSchema>;
export type BridgeSection = z.output<typeof bridgeSectionSchema>;
export type ProxySection = z.output<typeof proxySectionSchema>;

/** Config paths (dot-joined) that hold secrets: masked as `********` on read. */
export const SECRET_CONFIG_PATHS = [
  'proxy.auth.api_key',
  'proxy.auth.management_secret',
  'proxy.auth.defaults.api_key',
  'proxy.auth.defaults.management_secret',
] as const;
