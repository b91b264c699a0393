import fs from 'node:fs/promises';
import os from 'node:os';
import { READ_LIMITS, readTextBounded } from '../../infra/bounded-read.js';
import { expandHome } from '../../infra/home-path.js';
import type { Clock } from '../../infra/clock.js';
import type { AuthRecord } from './auth-store.js';
import { codexCliAuthPaths, codexTokensOfCliFile } from './codex/codex-import.js';
import { codexRecord } from './codex/codex-oauth.js';
import { AccountsError } from './errors.js';
import { fetchCopilotToken, fetchGithubUser, ghcpRecord } from './ghcp/ghcp-auth.js';
import { activeEmailOf, geminiAccountsPath, geminiCliAuthPaths, geminiCredsOfCliFile, geminiRecord } from './gemini/gemini-import.js';
import { copilotCliAuthPaths, githubTokenOfCopilotFile } from './ghcp/ghcp-import.js';
import { kiroClientOf, kiroClientPath, kiroIdeAuthPaths, kiroRecord, kiroTokenOfIdeFile } from './kiro/kiro-import.js';
import type { Outbound } from './outbound.js';
import type { AccountProvider } from './providers.js';

export interface ImportDeps {
  http: Outbound;
  clock: Clock;
  env: NodeJS.ProcessEnv;
}

/**
 * An account the provider's own CLI already signed in, without a browser (decisions §4.1). The
 * CLI's file is only read; the account gets its own file in proxy/auth/. `path` (optional) names
 * the file to read instead of the CLI's default places.
 */
export async function importAccount(provider: AccountProvider, deps: ImportDeps, path?: string): Promise<{ file: string; record: AuthRecord }> {
  const home = deps.env.HOME || os.homedir();
  const defaults = defaultPaths(provider, deps.env, home);
  if (defaults.length === 0) throw new AccountsError('sign-in-unavailable', `Import is not available for ${provider}`);
  const candidates = path ? [expandHome(path, deps.env)] : defaults;
  for (const file of candidates) {
    const parsed = await readJson(file);
    if (parsed === undefined) continue;
    if (provider === 'gemini') {
      const creds = geminiCredsOfCliFile(parsed);
      if (!creds) continue;
      const email = creds.email ?? activeEmailOf(await readJson(geminiAccountsPath(file)));
      if (!email) throw new AccountsError('no-credentials', `${file} names no e-mail (no id_token, no google_accounts.json beside it)`, { paths: [file] });
      return geminiRecord({ ...creds, email }, deps.env);
    } else if (provider === 'kiro') {
      const token = kiroTokenOfIdeFile(parsed);
      if (!token) continue;
      const clientFile = token.clientIdHash ? kiroClientPath(file, token.clientIdHash) : null;
      return kiroRecord(token, clientFile ? kiroClientOf(await readJson(clientFile)) : null);
    } else if (provider === 'codex') {
      const tokens = codexTokensOfCliFile(parsed);
      if (tokens) return codexRecord(tokens, deps.clock.now());
    } else if (provider === 'ghcp') {
      const found = githubTokenOfCopilotFile(parsed);
      if (found) {
        const user = await fetchGithubUser(deps.http, found.token);
        const copilot = await fetchCopilotToken(deps.http, found.token);
        return ghcpRecord(user, { accessToken: found.token, tokenType: 'bearer', scope: '' }, copilot, deps.clock.now());
      }
    }
  }
  throw new AccountsError('no-credentials', `No ${provider} sign-in found in ${candidates.join(', ')}`, { paths: candidates });
}

/** The provider's own CLI or IDE files; none for providers with nothing to import (agy, iflow). */
function defaultPaths(provider: AccountProvider, env: NodeJS.ProcessEnv, home: string): string[] {
  switch (provider) {
    case 'codex':
      return codexCliAuthPaths(env, home);
    case 'ghcp':
      return copilotCliAuthPaths(env, home);
    case 'gemini':
      return geminiCliAuthPaths(home);
    case 'kiro':
      return kiroIdeAuthPaths(home);
    default:
      return [];
  }
}

/** The file's JSON; undefined when it is missing, unreadable, a directory or not JSON. */
async function readJson(file: string): Promise<unknown> {
  try {
    if (!(await fs.stat(file)).isFile()) return undefined;
    return JSON.parse(await readTextBounded(file, READ_LIMITS.authFile));
  } catch {
    return undefined;
  }
}
