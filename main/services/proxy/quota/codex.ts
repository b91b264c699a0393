import { accessToken, clamp, isRecord, num, QuotaFetchError, type AuthRecord, type QuotaAdapter, type QuotaEntry } from './types.js';

const FIVE_HOURS_S = 5 * 3600;
const WEEK_S = 7 * 24 * 3600;

/**
 * Codex / ChatGPT (reference §7): wham/usage answers rate-limit windows with `used_percent`.
 * Entries `codex-5h`, `codex-weekly`, then one per extra window (code review, additional
 * limits). Percent units.
 */
export const codexQuota: QuotaAdapter = async (input) => {
  const headers: Record<string, string> = {
    authorization: `Bearer ${accessToken(input.auth)}`,
    'user-agent': 'codex_cli_rs/0.50.0',
    originator: 'codex_cli_rs',
  };
  const accountId = chatgptAccountId(input.auth);
  if (accountId) headers['chatgpt-account-id'] = accountId;
  const answer = await input.http(`${input.baseUrl}/backend-api/wham/usage`, { method: 'GET', headers });
  if (!isRecord(answer) || !isRecord(answer.rate_limit)) throw new QuotaFetchError('wham/usage answered without rate_limit');
  const entries: QuotaEntry[] = [];
  const add = (prefix: string, limit: unknown) => {
    if (!isRecord(limit)) return;
    for (const [slot, fallback] of [['primary_window', '5h'], ['secondary_window', 'weekly']] as const) {
      const entry = windowEntry(prefix, limit[slot], fallback, input.now);
      if (entry) entries.push(entry);
    }
  };
  add('codex', answer.rate_limit);
  add('code-review', answer.code_review_rate_limit);
  if (Array.isArray(answer.additional_rate_limits)) {
    for (const extra of answer.additional_rate_limits) {
      if (!isRecord(extra)) continue;
      const label = String(extra.limit_name ?? extra.metered_feature ?? 'extra').replace(/[^A-Za-z0-9._-]+/g, '-');
      add(`codex-${label}`, isRecord(extra.rate_limit) ? extra.rate_limit : extra);
    }
  }
  return entries;
};

function windowEntry(prefix: string, window: unknown, fallbackLabel: string, now: number): QuotaEntry | null {
  if (!isRecord(window)) return null;
  const usedPercent = num(window.used_percent);
  if (usedPercent === undefined) return null;
  const used = clamp(Math.round(usedPercent), 0, 100);
  const resetAtSeconds = num(window.reset_at);
  const resetAfter = num(window.reset_after_seconds);
  const resetAt = resetAtSeconds !== undefined ? resetAtSeconds * 1000 : resetAfter !== undefined ? now + resetAfter * 1000 : null;
  return { model: `${prefix}-${windowLabel(num(window.limit_window_seconds), fallbackLabel)}`, limit: 100, used, remaining: 100 - used, resetAt };
}

function windowLabel(seconds: number | undefined, fallback: string): string {
  if (seconds === FIVE_HOURS_S) return '5h';
  if (seconds === WEEK_S) return 'weekly';
  if (seconds === undefined) return fallback;
  return seconds % 3600 === 0 ? `${seconds / 3600}h` : `${seconds}s`;
}

/** `account_id` of the file, else the ChatGPT account claim of its id_token. */
function chatgptAccountId(auth: AuthRecord): string | undefined {
  if (typeof auth.account_id === 'string' && auth.account_id !== '') return auth.account_id;
  if (typeof auth.id_token !== 'string') return undefined;
  try {
    const payload = JSON.parse(Buffer.from(auth.id_token.split('.')[1] ?? '', 'base64url').toString('utf8')) as Record<string, unknown>;
    const claims = payload['https://api.openai.com/auth'];
    return isRecord(claims) && typeof claims.chatgpt_account_id === 'string' ? claims.chatgpt_account_id : undefined;
  } catch {
    return undefined;
  }
}
