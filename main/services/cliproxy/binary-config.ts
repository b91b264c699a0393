import fs from 'node:fs/promises';
import YAML, { isMap } from 'yaml';
import { parseProxyConfig } from '../../engines/proxy-engine/config.js';
import { writeFileAtomic } from '../../infra/atomic-write.js';
import { isNotFound } from '../../infra/file-stat.js';

/** The multi-account settings of proxy/config.yaml `routing` that the binary follows too (issue 31.4). */
export interface AccountRouting {
  account_strategy: 'round-robin' | 'fill-first';
  session_affinity: boolean;
}

export const DEFAULT_ACCOUNT_ROUTING: AccountRouting = { account_strategy: 'round-robin', session_affinity: true };

/**
 * How long the binary keeps a session on its account after the last request: the engine's own
 * affinity memory forgets a session after an hour without a request, so both behave alike.
 */
export const SESSION_AFFINITY_TTL = '1h';

/**
 * Switchboard's routing settings as the binary's own config keys (reference cliproxy §1 and §2.6):
 * - `routing.strategy` takes the strategy as is (the binary knows both names);
 * - `routing.session-affinity` / `routing.session-affinity-ttl` keep one client session on one account;
 * - `disable-cooling: false`: an account that hit its quota rests until its reset and the next one
 *   takes over (CCS sets `true`, which retries an exhausted account at once);
 * - `max-retry-credentials: 0`: a failed request may try every account of the provider.
 * Pure: the same settings always give the same keys.
 */
export function binaryRoutingKeys(settings: AccountRouting): Record<string, unknown> {
  return {
    routing: {
      strategy: settings.account_strategy,
      'session-affinity': settings.session_affinity,
      'session-affinity-ttl': SESSION_AFFINITY_TTL,
    },
    'disable-cooling': false,
    'max-retry-credentials': 0,
  };
}

/** `routing` of proxy/config.yaml's text; defaults when it is missing, broken or has no such keys. */
export function accountRoutingOf(proxyConfigText: string | null): AccountRouting {
  if (proxyConfigText === null) return DEFAULT_ACCOUNT_ROUTING;
  try {
    const { routing } = parseProxyConfig(proxyConfigText, 'proxy/config.yaml');
    return { account_strategy: routing.account_strategy, session_affinity: routing.session_affinity };
  } catch {
    // A broken proxy/config.yaml is reported by the engine and the YAML editor; the binary keeps defaults.
    return DEFAULT_ACCOUNT_ROUTING;
  }
}

/** proxy/config.yaml's text, or null when there is none. */
export async function readProxyConfigText(file: string): Promise<string | null> {
  try {
    return await fs.readFile(file, 'utf8');
  } catch (err) {
    if (isNotFound(err)) return null;
    throw err;
  }
}

/**
 * Writes the routing keys into the binary's generated config, keeping every other key (port, key,
 * secret). The binary hot-reloads its config file (reference cliproxy §5: routing strategy and
 * retry settings apply live), so no restart follows. Nothing is written when the keys already
 * match, and nothing when the generated config does not exist yet (its first start writes it).
 * Answers whether the file was rewritten.
 */
export async function applyBinaryRouting(configFile: string, settings: AccountRouting): Promise<boolean> {
  let text: string;
  try {
    text = await fs.readFile(configFile, 'utf8');
  } catch (err) {
    if (isNotFound(err)) return false;
    throw err;
  }
  const doc = YAML.parseDocument(text);
  if (doc.errors.length > 0 || !isMap(doc.contents)) return false; // not ours to repair: the runner rewrites it
  for (const [key, value] of Object.entries(binaryRoutingKeys(settings))) doc.set(key, value);
  const next = doc.toString();
  if (next === text) return false;
  await writeFileAtomic(configFile, next, { mode: 0o600 });
  return true;
}
