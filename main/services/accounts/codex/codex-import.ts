import { isRecord } from '../../../infra/json-checks.js';
import type { CodexTokens } from './codex-oauth.js';

/** Where the Codex CLI keeps its sign-in: `$CODEX_HOME/auth.json`, default `~/.codex/auth.json`. */
export function codexCliAuthPaths(env: NodeJS.ProcessEnv, home: string): string[] {
  return [env.CODEX_HOME ? `${env.CODEX_HOME}/auth.json` : `${home}/.codex/auth.json`];
}

/**
 * The Codex CLI's auth.json: `{"OPENAI_API_KEY": …, "tokens": {"id_token", "access_token",
 * "refresh_token", "account_id"}, "last_refresh"}`. An API-key-only file is no account.
 */
export function codexTokensOfCliFile(parsed: unknown): CodexTokens | null {
  if (!isRecord(parsed) || !isRecord(parsed.tokens)) return null;
  const t = parsed.tokens;
  if (typeof t.access_token !== 'string' || typeof t.refresh_token !== 'string') return null;
  return { id_token: typeof t.id_token === 'string' ? t.id_token : '', access_token: t.access_token, refresh_token: t.refresh_token };
}
