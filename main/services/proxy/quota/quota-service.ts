import { errorMessage } from '../../../infra/file-stat.js';
import { overrideOrigin } from '../../../infra/origin-overrides.js';
import type { ServiceContext } from '../../context.js';
import { ProxyError } from '../errors.js';
import { agyQuota } from './agy.js';
import { findAccountAuth } from './auth-lookup.js';
import { codexQuota } from './codex.js';
import { geminiQuota } from './gemini.js';
import { ghcpQuota } from './ghcp.js';
import { kiroQuota } from './kiro.js';
import { SlidingWindowLimit } from './rate-window.js';
import { createQuotaHttp } from './upstream-http.js';
import type { QuotaAdapter, QuotaHttp, QuotaResult, QuotaUnit } from './types.js';

export const QUOTA_PROVIDERS = ['agy', 'gemini', 'codex', 'iflow', 'kiro', 'ghcp'] as const;
export type QuotaProvider = (typeof QUOTA_PROVIDERS)[number];

export const INVALID_PROVIDER_MESSAGE = `Provider must be one of: ${QUOTA_PROVIDERS.join(', ')}`;
export const QUOTA_CACHE_MS = 2 * 60_000;
export const QUOTA_RATE_LIMIT = 120;
export const QUOTA_RATE_WINDOW_MS = 60_000;

interface ProviderInfo {
  /** `type` of its auth files. */
  type: string;
  unit: QuotaUnit;
  /** null: no known quota endpoint (iflow), answered with an empty list. */
  adapter: QuotaAdapter | null;
}

const PROVIDERS: Record<QuotaProvider, ProviderInfo> = {
  agy: { type: 'antigravity', unit: 'percent', adapter: agyQuota },
  gemini: { type: 'gemini', unit: 'percent', adapter: geminiQuota },
  codex: { type: 'codex', unit: 'percent', adapter: codexQuota },
  ghcp: { type: 'github-copilot', unit: 'requests', adapter: ghcpQuota },
  kiro: { type: 'kiro', unit: 'credits', adapter: kiroQuota },
  iflow: { type: 'iflow', unit: 'none', adapter: null },
};

/**
 * GET /api/proxy/quota/:provider/:accountId (decisions §4): validate, rate-limit per provider,
 * answer from the 2-minute cache, else read the account's auth file and ask the provider.
 * Only successes are cached; concurrent requests for one account share one upstream call.
 */
export class QuotaService {
  private readonly limiter = new SlidingWindowLimit(QUOTA_RATE_LIMIT, QUOTA_RATE_WINDOW_MS);
  private readonly cache = new Map<string, { result: QuotaResult; expiresAt: number }>();
  private readonly inFlight = new Map<string, Promise<QuotaResult>>();

  constructor(
    private readonly ctx: ServiceContext,
    private readonly http: QuotaHttp = createQuotaHttp(),
  ) {}

  async get(provider: string, accountId: string): Promise<QuotaResult> {
    if (!isProvider(provider)) throw new ProxyError('invalid-provider', INVALID_PROVIDER_MESSAGE);
    if (!isValidAccountId(accountId)) throw new ProxyError('invalid-account');
    const now = this.ctx.clock.now();
    if (!this.limiter.tryHit(provider, now)) throw new ProxyError('quota-rate-limited', `At most ${QUOTA_RATE_LIMIT} quota requests per minute for ${provider}`);
    const key = `${provider}:${accountId}`;
    const cached = this.cache.get(key);
    if (cached && now < cached.expiresAt) return cached.result;
    let pending = this.inFlight.get(key);
    if (!pending) {
      pending = this.fetch(provider, accountId).finally(() => this.inFlight.delete(key));
      this.inFlight.set(key, pending);
    }
    const result = await pending;
    this.cache.set(key, { result, expiresAt: this.ctx.clock.now() + QUOTA_CACHE_MS });
    return result;
  }

  private async fetch(provider: QuotaProvider, accountId: string): Promise<QuotaResult> {
    const info = PROVIDERS[provider];
    const auth = await findAccountAuth(this.ctx.paths.proxyAuthDir, info.type, accountId);
    if (!auth) throw new ProxyError('account-not-found', `No ${info.type} auth file for ${accountId} in ${this.ctx.paths.proxyAuthDir}`);
    const base = { provider, accountId, unit: info.unit };
    if (!info.adapter) return { ...base, quotas: [] };
    const { config } = await this.ctx.appConfig.read();
    // network.origin_overrides applies to quota hosts too (decisions §4.1).
    const baseUrl = overrideOrigin(String(config.proxy.quota_endpoints[provider]), config.network.origin_overrides).replace(/\/+$/, '');
    try {
      return { ...base, quotas: await info.adapter({ auth, baseUrl, now: this.ctx.clock.now(), http: this.http }) };
    } catch (err) {
      throw new ProxyError('quota-failed', errorMessage(err));
    }
  }
}

function isProvider(value: string): value is QuotaProvider {
  return (QUOTA_PROVIDERS as readonly string[]).includes(value);
}

/** Account ids are emails or names: never a path. */
export function isValidAccountId(id: string): boolean {
  return id.length > 0 && id.length <= 320 && !/[/\\\0]/.test(id) && !id.includes('..');
}
