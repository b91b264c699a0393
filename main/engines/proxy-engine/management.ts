import type http from 'node:http';
import { sendJson } from './client-errors.js';
import type { EngineContext } from './context.js';
import { coolingAccounts } from './providers/account-cooling.js';
import { handleRequestLogRoute } from './request-log-routes.js';
import { trafficState } from './traffic/state.js';
import { presentedKey, secretEquals } from './secrets.js';

export const MANAGEMENT_PREFIX = '/v0/management/';
/** The accounts the engine rests after a quota answer, a sign-out or an error: `{accounts:[{provider, file, email, coolingUntil, reason}]}`. */
export const ACCOUNTS_ROUTE = '/v0/management/accounts';
/** Where the app's supervisor reads `sessionCount` (decisions §4). */
export const SESSIONS_ROUTE = '/v0/management/sessions';

/**
 * Management routes, guarded like CLIProxyAPI's: off (404) without a configured secret,
 * loopback clients only, secret as Bearer or `X-Management-Key`.
 */
export function handleManagement(req: http.IncomingMessage, res: http.ServerResponse, ctx: EngineContext, pathname: string): void {
  const secret = ctx.config.auth.management_secret;
  if (!secret) return sendJson(res, 404, { error: 'Not found' });
  if (!isLoopback(req.socket.remoteAddress)) return sendJson(res, 403, { error: 'remote management disabled' });
  const given = presentedKey(req, 'x-management-key');
  if (!given) return sendJson(res, 401, { error: 'missing management key' });
  if (!secretEquals(given, secret)) return sendJson(res, 401, { error: 'invalid management key' });
  const headers = { 'x-switchboard-engine-version': ctx.version, 'cache-control': 'no-store' };
  if (pathname === SESSIONS_ROUTE && req.method === 'GET') {
    return sendJson(res, 200, { sessionCount: ctx.sessions.count(ctx.now()), pid: process.pid, startedAt: ctx.startedAt, version: ctx.version }, headers);
  }
  if (pathname === ACCOUNTS_ROUTE && req.method === 'GET') {
    void trafficState(ctx)
      .accounts.current()
      .then(
        (upstreams) => sendJson(res, 200, { accounts: coolingAccounts(upstreams, ctx.now()) }, headers),
        (err: Error) => sendJson(res, 500, { error: 'accounts unavailable', message: err.message }, headers),
      );
    return;
  }
  if (handleRequestLogRoute(req, res, ctx, pathname, headers)) return;
  sendJson(res, 404, { error: 'Not found' }, headers);
}

function isLoopback(address: string | undefined): boolean {
  return address === '127.0.0.1' || address === '::1' || address === '::ffff:127.0.0.1';
}
