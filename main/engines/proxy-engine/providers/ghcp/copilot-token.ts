import { request } from 'undici';
import { overrideOrigin, type OriginOverrides } from '../../../../infra/origin-overrides.js';

/** Where the exchange happens (reference/accounts.md §5). */
export const COPILOT_TOKEN_URL = 'https://api.github.com/copilot_internal/v2/token';
/** Copilot's API when the token answer names none. */
export const COPILOT_API_URL = 'https://api.githubcopilot.com';

/** Fetched again this long before it expires, as Copilot's own clients do. */
const RENEW_LEAD_MS = 5 * 60_000;
/** A token whose answer carries no expiry is kept this long (Copilot's usual lifetime). */
const DEFAULT_TTL_MS = 25 * 60_000;
const EXCHANGE_TIMEOUT_MS = 15_000;

export interface CopilotToken {
  token: string;
  /** `endpoints.api` of the answer: the base of chat completions and messages. */
  api: string;
  expiresAt: number;
}

/** Why no Copilot token could be had: the status the client gets and what to do about it. */
export class CopilotTokenError extends Error {
  constructor(
    message: string,
    readonly status: number,
  ) {
    super(message);
  }
}

/**
 * Copilot API tokens, exchanged for an account's GitHub token and kept in memory until five
 * minutes before they expire. Concurrent requests of one account share one exchange. Nothing is
 * written: the auth file (the GitHub token) never changes, so no other process is in the way.
 */
export class CopilotTokens {
  private readonly cache = new Map<string, CopilotToken>();
  private readonly pending = new Map<string, Promise<CopilotToken>>();

  constructor(
    private readonly overrides: OriginOverrides,
    private readonly now: () => number,
  ) {}

  async get(githubToken: string): Promise<CopilotToken> {
    const cached = this.cache.get(githubToken);
    if (cached && cached.expiresAt - RENEW_LEAD_MS > this.now()) return cached;
    let inFlight = this.pending.get(githubToken);
    if (!inFlight) {
      inFlight = this.exchange(githubToken).finally(() => this.pending.delete(githubToken));
      this.pending.set(githubToken, inFlight);
    }
    return inFlight;
  }

  /** Forget a token the API refused (it may have been revoked before it expired). */
  drop(githubToken: string): void {
    this.cache.delete(githubToken);
  }

  private async exchange(githubToken: string): Promise<CopilotToken> {
    let status: number;
    let text: string;
    try {
      const res = await request(overrideOrigin(COPILOT_TOKEN_URL, this.overrides), {
        method: 'GET',
        headers: {
          authorization: `token ${githubToken}`,
          accept: 'application/json',
          'user-agent': 'GithubCopilot/1.0',
          'editor-version': 'vscode/1.100.0',
          'editor-plugin-version': 'copilot/1.300.0',
        },
        headersTimeout: EXCHANGE_TIMEOUT_MS,
        bodyTimeout: EXCHANGE_TIMEOUT_MS,
      });
      status = res.statusCode;
      text = await res.body.text();
    } catch (err) {
      throw new CopilotTokenError(`could not reach GitHub for a Copilot token: ${(err as Error).message}`, 502);
    }
    if (status === 401) throw new CopilotTokenError('GitHub refused the sign-in (401): sign in again (switchboard login ghcp)', 401);
    if (status === 403 || status === 404) throw new CopilotTokenError(`GitHub gave no Copilot token (${status}): this account has no active Copilot subscription`, 403);
    if (status >= 400) throw new CopilotTokenError(`GitHub answered ${status} to the Copilot token exchange`, 502);
    const parsed = parseToken(text);
    if (!parsed) throw new CopilotTokenError('GitHub answered the Copilot token exchange with something that is not a token', 502);
    const token: CopilotToken = {
      token: parsed.token,
      api: overrideOrigin(parsed.api ?? COPILOT_API_URL, this.overrides).replace(/\/+$/, ''),
      expiresAt: parsed.expiresAt ?? this.now() + DEFAULT_TTL_MS,
    };
    this.cache.set(githubToken, token);
    return token;
  }
}

function parseToken(text: string): { token: string; api?: string; expiresAt?: number } | undefined {
  try {
    const o = JSON.parse(text) as { token?: unknown; expires_at?: unknown; endpoints?: { api?: unknown } };
    if (typeof o.token !== 'string' || o.token === '') return undefined;
    const api = typeof o.endpoints?.api === 'string' ? o.endpoints.api : undefined;
    const expiresAt = typeof o.expires_at === 'number' && Number.isFinite(o.expires_at) ? o.expires_at * 1000 : undefined;
    return { token: o.token, ...(api ? { api } : {}), ...(expiresAt ? { expiresAt } : {}) };
  } catch {
    return undefined;
  }
}
