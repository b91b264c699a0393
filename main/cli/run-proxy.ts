import path from 'node:path';
import { readHomeLock } from '../infra/home-lock.js';
import { isProcessAlive } from '../infra/process-alive.js';
import { errorMessage } from '../infra/file-stat.js';
import { pointsAtProxy, readProxyAddress } from '../services/profiles/proxy-address.js';
import { withProviderServices } from './provider-services.js';

/** What `run` did about the local proxy before launching the agent. */
export type ProxyForRun =
  | { kind: 'not-needed' }
  | { kind: 'running'; via: 'app' | 'cli'; started: boolean }
  | { kind: 'failed'; message: string };

const APP_TIMEOUT_MS = 20_000;

/**
 * Issue 29.4: a profile whose base URL is the local proxy gets a running proxy before its agent
 * starts. A running app (its home lock names its URL) is asked through its API, so its own
 * supervisor owns the child; otherwise the CLI starts it through the same supervisor and leaves it
 * running for the next app start to adopt (docs/settings.md).
 */
export async function ensureProxyForRun(baseUrl: string | null, paths: { configDir: string; proxyConfig: string }, env: NodeJS.ProcessEnv): Promise<ProxyForRun> {
  let address;
  try {
    address = await readProxyAddress(paths.proxyConfig);
  } catch (err) {
    return { kind: 'failed', message: `proxy/config.yaml cannot be read: ${errorMessage(err)}` };
  }
  if (!pointsAtProxy(baseUrl, address)) return { kind: 'not-needed' };
  const app = await runningAppUrl(paths.configDir);
  try {
    if (app) return { kind: 'running', via: 'app', started: await startThroughApp(app) };
    const started = await withProviderServices(env, async (services) => {
      if (await services.proxy.control.adopt()) return false;
      return (await services.proxy.control.start()).started;
    });
    return { kind: 'running', via: 'cli', started };
  } catch (err) {
    return { kind: 'failed', message: errorMessage(err) };
  }
}

async function runningAppUrl(configDir: string): Promise<string | null> {
  const lock = await readHomeLock(path.join(configDir, 'switchboard.lock'));
  if (!lock || lock.url === null || lock.pid === process.pid || !isProcessAlive(lock.pid)) return null;
  return lock.url;
}

async function startThroughApp(url: string): Promise<boolean> {
  const res = await fetch(new URL('/api/proxy/proxy-start', url), { method: 'POST', signal: AbortSignal.timeout(APP_TIMEOUT_MS) });
  const body = (await res.json().catch(() => ({}))) as { started?: unknown; error?: unknown; message?: unknown };
  if (!res.ok) throw new Error(`the running app could not start it: ${[body.error, body.message].filter((x) => typeof x === 'string').join(': ') || `HTTP ${res.status}`}`);
  return body.started === true;
}
