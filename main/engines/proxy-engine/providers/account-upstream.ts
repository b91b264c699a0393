import type { Upstream } from '../config.js';
import type { KeyPool } from '../traffic/key-pool.js';
import type { CodexAccount } from './codex/auth-file.js';

/**
 * A subscription provider's signed-in accounts as one upstream: each account is a slot of its key
 * pool (round-robin, a 429 cools that account down until its reset), so routing, failover and the
 * request log treat accounts as they treat an API upstream's keys. Built from the auth files, never
 * from proxy/config.yaml.
 */
export interface AccountUpstream {
  kind: 'account';
  /** The provider value (`codex`): the `owned_by` of its models, the name `/api/provider/<name>` pins. */
  name: 'codex';
  format: 'responses';
  base_url: string;
  models: string[];
  /** One access token per account, in slot order. */
  api_key: string[];
  accounts: CodexAccount[];
  /** The accounts' pool, kept across re-reads of the auth files so cooldowns survive them. */
  pool: KeyPool;
}

/** What the traffic code routes to: an upstream from proxy/config.yaml, or a provider's accounts. */
export type RoutedUpstream = Upstream | AccountUpstream;

export function isAccountUpstream(upstream: RoutedUpstream): upstream is AccountUpstream {
  return (upstream as AccountUpstream).kind === 'account';
}
