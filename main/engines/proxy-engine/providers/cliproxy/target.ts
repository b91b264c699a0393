import fs from 'node:fs/promises';
import YAML from 'yaml';
import { CLIPROXY_STARTING_STALE_MS, cliproxyConfigFile, cliproxyStartingFile, cliproxyStateFile, cliproxyVersionFile } from '../../../../infra/cliproxy-files.js';
import { pathExists } from '../../../../infra/file-stat.js';

/** Where the managed binary listens and the key it takes from the engine. */
export interface CliproxyTarget {
  port: number;
  apiKey: string;
}

/**
 * The one place the engine learns the binary's port and key: `port` and `api-keys[0]` of the
 * generated `proxy/cliproxy/config.yaml` (the binary rewrites that file, but never these two).
 * Undefined when the config was never generated (the binary never started) or cannot be read.
 */
export async function readCliproxyTarget(proxyDir: string): Promise<CliproxyTarget | undefined> {
  const file = cliproxyConfigFile(proxyDir);
  // Read per forwarded request: a stat decides whether the YAML must be parsed again.
  const st = await fs.stat(file, { bigint: true }).catch(() => null);
  if (st === null) return undefined;
  const identity = `${st.dev}:${st.ino}:${st.size}:${st.mtimeNs}`;
  const known = lastRead.get(file);
  if (known?.identity === identity) return known.target;
  const target = await parseTarget(file);
  lastRead.set(file, { identity, target });
  return target;
}

const lastRead = new Map<string, { identity: string; target: CliproxyTarget | undefined }>();

async function parseTarget(file: string): Promise<CliproxyTarget | undefined> {
  try {
    const doc: unknown = YAML.parse(await fs.readFile(file, 'utf8'));
    if (doc === null || typeof doc !== 'object') return undefined;
    const { port, 'api-keys': keys } = doc as Record<string, unknown>;
    const apiKey = Array.isArray(keys) ? keys[0] : undefined;
    if (typeof port !== 'number' || !Number.isInteger(port) || port <= 0 || port > 65535 || typeof apiKey !== 'string' || apiKey === '') return undefined;
    return { port, apiKey };
  } catch {
    return undefined;
  }
}

/** Whether `proxy/bin/` holds an installed binary (the installer's version record). */
export async function cliproxyInstalled(proxyDir: string): Promise<boolean> {
  return pathExists(cliproxyVersionFile(proxyDir));
}

/**
 * Whether the binary should be answering: the supervisor's state file says it runs, or the app is
 * starting it right now (an update's restart, a lazy start). Only then is a refused connection
 * worth waiting out.
 */
export async function cliproxyExpectedUp(proxyDir: string, now: number): Promise<boolean> {
  if (await pathExists(cliproxyStateFile(proxyDir))) return true;
  try {
    const { since } = JSON.parse(await fs.readFile(cliproxyStartingFile(proxyDir), 'utf8')) as { since?: unknown };
    return typeof since === 'number' && now - since < CLIPROXY_STARTING_STALE_MS;
  } catch {
    return false;
  }
}
