import { accessToken, isoToMs, isRecord, num, QuotaFetchError, type QuotaAdapter, type QuotaEntry } from './types.js';

const SNAPSHOTS = ['premium_interactions', 'chat', 'completions'] as const;

/**
 * GitHub Copilot (reference §7): copilot_internal/user answers quota snapshots in requests.
 * One entry per snapshot; unlimited snapshots are left out. Units: requests.
 */
export const ghcpQuota: QuotaAdapter = async (input) => {
  const answer = await input.http(`${input.baseUrl}/copilot_internal/user`, {
    method: 'GET',
    headers: {
      authorization: `token ${accessToken(input.auth)}`,
      'x-github-api-version': '2025-04-01',
      'user-agent': 'GitHubCopilotChat/0.26.7',
      'editor-version': 'vscode/1.99.0',
    },
  });
  const snapshots = isRecord(answer) ? answer.quota_snapshots : undefined;
  if (!isRecord(answer) || !isRecord(snapshots)) throw new QuotaFetchError('copilot_internal/user answered without quota_snapshots');
  const resetAt = isoToMs(answer.quota_reset_date_utc) ?? isoToMs(answer.quota_reset_date);
  const entries: QuotaEntry[] = [];
  for (const name of SNAPSHOTS) {
    const snap = snapshots[name];
    if (!isRecord(snap) || snap.unlimited === true) continue;
    const limit = num(snap.entitlement);
    const left = num(snap.remaining);
    if (limit === undefined || left === undefined) continue;
    const remaining = Math.max(0, Math.round(left));
    entries.push({ model: name, limit: Math.round(limit), used: Math.max(0, Math.round(limit) - remaining), remaining, resetAt });
  }
  return entries;
};
