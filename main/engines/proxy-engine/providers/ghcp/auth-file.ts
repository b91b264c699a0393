import type { AccountRef } from '../account-upstream.js';

/**
 * A Copilot account from its auth file (reference/accounts.md §5, CLIProxyAPI's format):
 * `{"type":"github-copilot","username","email","access_token",…}`. The GitHub token never expires;
 * the short-lived Copilot token is exchanged for it in memory (copilot-token.ts), never written.
 */
export function parseCopilotAccount(file: string, o: Record<string, unknown>): AccountRef | undefined {
  if (o.type !== 'github-copilot') return undefined;
  const token = typeof o.access_token === 'string' ? o.access_token : '';
  if (token === '') return undefined;
  const who = typeof o.email === 'string' && o.email ? o.email : typeof o.username === 'string' && o.username ? o.username : file;
  return { file, email: who, token };
}
