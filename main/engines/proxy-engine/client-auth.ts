import type http from 'node:http';
import type { EngineContext } from './context.js';
import { presentedKey, secretEquals } from './secrets.js';

/**
 * API-key check for client routes (`/v1/*`, `/api/provider/*`): Bearer or `x-api-key`. Returns
 * why the request is refused (the server answers 401 in the client's format), or null when it
 * may pass. With no key configured the proxy is open, like CLIProxyAPI with empty `api-keys`.
 */
export function clientAuthFailure(req: http.IncomingMessage, ctx: EngineContext): string | null {
  const expected = ctx.config.auth.api_key;
  if (!expected) return null;
  const given = presentedKey(req, 'x-api-key');
  if (given && secretEquals(given, expected)) return null;
  return given ? 'Invalid API key' : 'Missing API key';
}
