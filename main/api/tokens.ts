import { Router } from 'express';
import { routeOn } from './route.js';
import type { RouterDeps } from './routers.js';
import {
  accountResetResponse,
  apiKeyChangeResponse,
  secretChangeResponse,
  tokensChangeResponse,
  tokensResponse,
  tokensUpdateBody,
  tokensUpdateError,
} from './schemas/tokens.js';
import { mapSettingsErrors } from './settings-errors.js';

/**
 * The proxy's global tokens and the default account (spec 4.2). Mounted before the settings
 * router so `/api/settings/auth/...` never reaches `/api/settings/:profile`.
 */
export function createTokensRouter({ services, registry }: RouterDeps): Router {
  const router = Router();
  const route = routeOn(router, registry, 'tokens');
  const tokens = services.tokens;

  route({
    method: 'get',
    path: '/api/settings/auth/tokens',
    summary: 'API key and management secret, masked',
    response: tokensResponse,
    handler: () => tokens.view({ raw: false }),
  });

  route({
    method: 'get',
    path: '/api/settings/auth/tokens/raw',
    summary: 'API key and management secret, unmasked (no-store)',
    response: tokensResponse,
    noStore: true,
    handler: () => tokens.view({ raw: true }),
  });

  route({
    method: 'put',
    path: '/api/settings/auth/tokens',
    summary: 'Set either token; an empty string resets it to its default',
    body: tokensUpdateBody,
    bodyError: tokensUpdateError,
    response: tokensChangeResponse,
    handler: ({ body }) => tokens.update(body),
  });

  route({
    method: 'post',
    path: '/api/settings/auth/tokens/regenerate-secret',
    summary: 'Replace the management secret with 32 random alphanumerics',
    response: secretChangeResponse,
    handler: () => tokens.regenerateSecret(),
  });

  route({
    method: 'post',
    path: '/api/settings/auth/tokens/regenerate-api-key',
    summary: 'Replace the API key with sk-sb- and 32 random alphanumerics; profiles that used the old key follow',
    response: apiKeyChangeResponse,
    handler: () => tokens.regenerateApiKey(),
  });

  route({
    method: 'post',
    path: '/api/settings/auth/tokens/reset',
    summary: 'Return both tokens to their defaults',
    response: tokensChangeResponse,
    handler: () => tokens.reset(),
  });

  route({
    method: 'delete',
    path: '/api/accounts/reset-default',
    summary: 'Forget the default account (the top-level default key of config.yaml)',
    response: accountResetResponse,
    handler: async () => {
      const answer = await services.accounts.resetDefault();
      services.profiles.announce('default');
      return answer;
    },
  });

  router.use(mapSettingsErrors);
  return router;
}
