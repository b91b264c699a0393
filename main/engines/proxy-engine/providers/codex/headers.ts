import type { AccountRef } from '../account-upstream.js';

/**
 * The ChatGPT backend answers clients that look like the Codex CLI (reference/accounts.md §4:
 * CLIProxyAPI forces this User-Agent and Originator). Values as of August 2026; when the backend
 * starts refusing them, this is the one place to change.
 */
const CODEX_USER_AGENT = 'codex-tui/0.146.0 (Mac OS 26.5.0; arm64) iTerm.app/3.6.10 (codex-tui; 0.146.0)';
const CODEX_ORIGINATOR = 'codex-tui';

/** Headers the Codex CLI sends that pass through when an OpenAI-format client sends them. */
const PASS_THROUGH = ['version', 'x-codex-turn-metadata', 'x-client-request-id', 'x-codex-beta-features'] as const;

export function codexHeaders(account: AccountRef, sessionKey: string | undefined, incoming: Readonly<Record<string, string | string[] | undefined>>): Record<string, string> {
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    accept: 'text/event-stream',
    authorization: `Bearer ${account.token}`,
    'user-agent': CODEX_USER_AGENT,
    originator: CODEX_ORIGINATOR,
  };
  if (account.accountId) headers['chatgpt-account-id'] = account.accountId;
  if (sessionKey) headers.session_id = sessionKey;
  for (const name of PASS_THROUGH) {
    const value = incoming[name];
    if (typeof value === 'string' && value) headers[name] = value;
  }
  return headers;
}
