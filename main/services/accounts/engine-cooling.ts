import { ACCOUNTS_ROUTE } from '../../engines/proxy-engine/management.js';
import { getLocalJson } from '../../infra/http-json.js';
import { isRecord } from '../../infra/json-checks.js';
import type { AccountView } from './account-view.js';

/** Where the running built-in engine's management routes answer (null: stopped, external binary, no secret). */
export type EngineEndpoint = () => { baseUrl: string; secret: string } | null;

export interface Cooling {
  until: number;
  reason: string;
}

/**
 * The accounts the running engine rests (a quota answer, a sign-out, an error), by auth file, from
 * its `GET /v0/management/accounts`. Empty when the engine is not running or does not answer within
 * a second: the account list never waits on, or fails because of, the engine.
 */
export async function engineCooling(endpoint: EngineEndpoint | undefined): Promise<Map<string, Cooling>> {
  const out = new Map<string, Cooling>();
  const target = endpoint?.();
  if (!target) return out;
  try {
    const { status, body } = await getLocalJson(`${target.baseUrl}${ACCOUNTS_ROUTE}`, { authorization: `Bearer ${target.secret}` }, 1_000);
    const rows = status === 200 && isRecord(body) && Array.isArray(body.accounts) ? (body.accounts as unknown[]) : [];
    for (const row of rows) {
      if (!isRecord(row) || typeof row.file !== 'string' || typeof row.coolingUntil !== 'string') continue;
      const until = Date.parse(row.coolingUntil);
      if (Number.isFinite(until)) out.set(row.file, { until, reason: typeof row.reason === 'string' ? row.reason : '' });
    }
  } catch {
    // the engine went away between the look and the call: nothing is cooling that we know of
  }
  return out;
}

/** The views with `coolingUntil` and `coolingReason` for the accounts the engine rests until a time still ahead. */
export function withCooling(views: AccountView[], cooling: Map<string, Cooling>, now: number): AccountView[] {
  return views.map((v) => {
    const c = cooling.get(v.file);
    return c && c.until > now ? { ...v, coolingUntil: c.until, coolingReason: c.reason || 'resting' } : v;
  });
}
