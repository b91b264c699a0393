import fs from 'node:fs/promises';
import path from 'node:path';
import type { ModelChoice } from './model-map.js';
import type { UpstreamCredentials } from './upstream.js';

/** Settings the app hands the daemon in `$SWITCHBOARD_BRIDGE_OPTIONS` (no secrets in there). */
export interface DaemonSettings extends ModelChoice {
  upstreamUrl: string;
  ghostMode: boolean;
  /** Upstream silence bound (before headers, between chunks); absent = the daemon's default. */
  upstreamTimeoutMs?: number;
}

export interface DaemonArgs {
  configDir: string;
  port: number;
}

/** `--config-dir <dir> --port <n>`; both also make the daemon recognisable in a process list. */
export function parseDaemonArgs(argv: string[]): DaemonArgs {
  const value = (flag: string) => {
    const i = argv.indexOf(flag);
    return i >= 0 ? argv[i + 1] : undefined;
  };
  const configDir = value('--config-dir');
  const port = Number(value('--port'));
  if (!configDir) throw new Error('--config-dir is required');
  if (!Number.isInteger(port) || port < 1 || port > 65535) throw new Error('--port must be 1-65535');
  return { configDir: path.resolve(configDir), port };
}

export function parseDaemonSettings(raw: string | undefined): DaemonSettings {
  const o = (raw ? JSON.parse(raw) : {}) as Partial<Record<keyof DaemonSettings, unknown>>;
  const str = (v: unknown, d: string) => (typeof v === 'string' ? v : d);
  const timeout = o.upstreamTimeoutMs;
  return {
    ...(typeof timeout === 'number' && Number.isFinite(timeout) && timeout > 0 ? { upstreamTimeoutMs: timeout } : {}),
    upstreamUrl: str(o.upstreamUrl, 'https://api2.cursor.sh'),
    ghostMode: o.ghostMode !== false,
    model: str(o.model, 'claude-4.5-sonnet'),
    opus: str(o.opus, ''),
    sonnet: str(o.sonnet, ''),
    haiku: str(o.haiku, ''),
  };
}

/** The files under {config_dir}/cursor the daemon reads (the app writes them). */
export function daemonFiles(configDir: string) {
  return {
    credentials: path.join(configDir, 'cursor', 'credentials.json'),
    token: path.join(configDir, 'cursor', 'daemon-token'),
  };
}

/** Token and machine id from credentials.json; null when missing or unreadable. */
export async function readCredentialsFile(file: string): Promise<UpstreamCredentials | null> {
  try {
    const raw = JSON.parse(await fs.readFile(file, 'utf8')) as { accessToken?: unknown; machineId?: unknown };
    return typeof raw.accessToken === 'string' && typeof raw.machineId === 'string'
      ? { accessToken: raw.accessToken, machineId: raw.machineId }
      : null;
  } catch {
    return null;
  }
}
