import type { AccountRef } from '../account-upstream.js';

/** The providers the managed CLIProxyAPI serves, by the `type` of their auth files (reference/accounts.md §2, §3, §6). */
export const CLIPROXY_TYPES = { antigravity: 'agy', kiro: 'kiro', gemini: 'gemini' } as const;

export type CliproxyProvider = (typeof CLIPROXY_TYPES)[keyof typeof CLIPROXY_TYPES];

/**
 * An agy, kiro or gemini account. The engine never uses its token (the binary reads the same file,
 * refreshes it and rotates between the accounts); the file only says the provider has an active
 * account, so its models are routed to the binary.
 */
export function parseCliproxyAccount(file: string, o: Record<string, unknown>): { provider: CliproxyProvider; ref: AccountRef } | undefined {
  // Own keys only: a `type` of "constructor" must not find Object's.
  if (typeof o.type !== 'string' || !Object.hasOwn(CLIPROXY_TYPES, o.type)) return undefined;
  const provider = CLIPROXY_TYPES[o.type as keyof typeof CLIPROXY_TYPES];
  return { provider, ref: { file, email: typeof o.email === 'string' ? o.email : file, token: '' } };
}
