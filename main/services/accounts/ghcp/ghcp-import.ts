import { isRecord } from '../../../infra/json-checks.js';

/** Where Copilot's editors keep their GitHub sign-in: apps.json (current) and hosts.json (older). */
export function copilotCliAuthPaths(env: NodeJS.ProcessEnv, home: string): string[] {
  const base = env.XDG_CONFIG_HOME || `${home}/.config`;
  return [`${base}/github-copilot/apps.json`, `${base}/github-copilot/hosts.json`];
}

/**
 * The github.com entry of apps.json (`{"github.com:<client id>": {"user", "oauth_token", "githubAppId"}}`)
 * or hosts.json (`{"github.com": {"user", "oauth_token"}}`). Enterprise hosts are not accounts here.
 */
export function githubTokenOfCopilotFile(parsed: unknown): { user: string; token: string } | null {
  if (!isRecord(parsed)) return null;
  for (const [key, value] of Object.entries(parsed)) {
    if (key !== 'github.com' && !key.startsWith('github.com:')) continue;
    if (isRecord(value) && typeof value.oauth_token === 'string' && value.oauth_token !== '') {
      return { user: typeof value.user === 'string' ? value.user : '', token: value.oauth_token };
    }
  }
  return null;
}
