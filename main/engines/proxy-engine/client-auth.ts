import type http from 'node:http';
import { clientFormatFor, sendClientError } from './client-errors.js';
import type { EngineContext } from './context.js';
import { presentedKey, secretEquals } from './secrets.js';

/**
 * API-key check for client routes (`/v1/*`, `/api/provider/*`): Bearer or `x-api-key`.
 * Answers 401 in the client's own error format and returns false when the key is missing or
 * wrong. With no key configured the proxy is open, like CLIProxyAPI with empty `api-keys`.
 */
export function authorizeClient(req: http.IncomingMessage, res: http.ServerResponse, ctx: EngineContext, pathname: string): boolean {
  const expected = ctx.config.auth.api_key;
  if (!expected) return true;
  const given = presentedKey(req, 'x-api-key');
  if (given && secretEquals(given, expected)) return true;
  sendClientError(res, clientFormatFor(pathname), 401, given ? 'Invalid API key' : 'Missing API key');
  return false;
}
