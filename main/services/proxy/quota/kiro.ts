import { accessToken, isRecord, num, QuotaFetchError, type QuotaAdapter } from './types.js';

/**
 * Kiro (reference §7, from the Plus auth code): getUsageLimits answers credits used and the
 * limit of the current period. One entry `kiro`; units: credits.
 */
export const kiroQuota: QuotaAdapter = async (input) => {
  const arn = input.auth.profile_arn;
  if (typeof arn !== 'string' || arn === '') throw new QuotaFetchError('the auth file has no profile_arn');
  const query = new URLSearchParams({ origin: 'AI_EDITOR', profileArn: arn, resourceType: 'AGENTIC_REQUEST' });
  const answer = await input.http(`${regionalBase(input.baseUrl, arn)}/getUsageLimits?${query}`, {
    method: 'GET',
    headers: {
      authorization: `Bearer ${accessToken(input.auth)}`,
      'user-agent': 'aws-sdk-js/1.0.0 KiroIDE',
      'x-amz-user-agent': 'aws-sdk-js/1.0.0 KiroIDE',
    },
  });
  const first = isRecord(answer) && Array.isArray(answer.usageBreakdownList) ? answer.usageBreakdownList[0] : undefined;
  if (!isRecord(answer) || !isRecord(first)) throw new QuotaFetchError('getUsageLimits answered without usageBreakdownList');
  const limit = Math.round(num(first.usageLimitWithPrecision) ?? num(first.usageLimit) ?? 0);
  const used = Math.round(num(first.currentUsageWithPrecision) ?? num(first.currentUsage) ?? 0);
  const reset = num(answer.nextDateReset);
  return [{ model: 'kiro', limit, used, remaining: Math.max(0, limit - used), resetAt: reset !== undefined ? Math.round(reset * 1000) : null }];
};

/**
 * CodeWhisperer is regional: the host names the region of the profile ARN. A configured AWS host
 * gets the ARN's region; any other base URL (a mirror, a test server) is used as it is.
 */
function regionalBase(baseUrl: string, arn: string): string {
  const region = /^arn:aws[^:]*:[^:]+:([a-z0-9-]+):/.exec(arn)?.[1];
  if (!region) return baseUrl;
  return baseUrl.replace(/^https:\/\/codewhisperer\.[a-z0-9-]+\.amazonaws\.com$/, `https://codewhisperer.${region}.amazonaws.com`);
}
