import type { Upstream } from '../config.js';
import type { KeyPool } from '../traffic/key-pool.js';
import type { CliproxyProvider } from './cliproxy/auth-file.js';

/**
 * A subscription provider's signed-in accounts as one upstream: each account is a slot of its key
 * pool, in drain order (priority, then file name; round-robin or fill-first by
 * `routing.account_strategy`; a 429 cools that account down until its reset), so routing, failover and the
 * request log treat accounts as they treat an API upstream's keys. Built from the auth files, never
 * from proxy/config.yaml.
 */
export interface AccountUpstream {
  kind: 'account';
  /** The provider value: the `owned_by` of its models, the name `/api/provider/<name>` pins. */
  name: AccountProvider;
  /**
   * The wire format of this upstream: codex speaks Responses; a Copilot account is two upstreams,
   * Anthropic Messages for its Claude models and Chat Completions for the rest.
   */
  format: 'responses' | 'anthropic' | 'openai';
  base_url: string;
  models: string[];
  /** One token per account, in slot order. */
  api_key: string[];
  accounts: AccountRef[];
  /** The accounts' pool, kept across re-reads of the auth files so cooldowns survive them. */
  pool: KeyPool;
  /**
   * `cliproxy`: the provider is served by the managed CLIProxyAPI binary (agy, kiro, gemini). The
   * upstream then has one slot, the binary, which rotates between the accounts itself; its
   * address and key are read at call time (providers/cliproxy/target.ts).
   */
  via?: 'cliproxy';
}

export type AccountProvider = 'codex' | 'ghcp' | CliproxyProvider;

/** One signed-in account, as read from its auth file. */
export interface AccountRef {
  /** The auth file's name in proxy/auth/. */
  file: string;
  email: string;
  /** codex: the access token; ghcp: the GitHub token the Copilot token is exchanged for. */
  token: string;
  /** codex: the ChatGPT account id (`chatgpt-account-id`). */
  accountId?: string;
  /** The auth file's `priority` (CLIProxyAPI's field): higher drains first; 0 when absent. */
  priority?: number;
}

/** What the traffic code routes to: an upstream from proxy/config.yaml, or a provider's accounts. */
export type RoutedUpstream = Upstream | AccountUpstream;

export function isAccountUpstream(upstream: RoutedUpstream): upstream is AccountUpstream {
  return (upstream as AccountUpstream).kind === 'account';
}
