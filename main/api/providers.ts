import { Router, type NextFunction, type Request, type Response } from 'express';
import { ProvidersError, type ProvidersErrorKind } from '../services/providers/errors.js';
import { E, type ErrorText } from './error-texts.js';
import { ApiError } from './errors.js';
import { mapProxyErrors } from './proxy-errors.js';
import { routeOn } from './route.js';
import type { RouterDeps } from './routers.js';
import { addProviderBody, addProviderResponse, catalogResponse, connectionResult, testProfileBody, testProviderBody } from './schemas/providers.js';
import { mapSettingsErrors } from './settings-errors.js';

const answers: Record<ProvidersErrorKind, [number, ErrorText]> = {
  'not-found': [404, E.providerNotFound],
  'key-required': [400, E.apiKeyRequired],
  'profile-exists': [409, E.profileExists],
  'upstream-exists': [409, E.upstreamExists],
  'needs-proxy': [400, E.providerNeedsProxy],
  'invalid-target': [400, E.invalidProviderRequest],
};

/** API providers from the catalogue (decisions §4.2): the catalogue, add in one step, the connection test. */
export function createProvidersRouter({ services, registry }: RouterDeps): Router {
  const router = Router();
  const route = routeOn(router, registry, 'providers');
  const providers = services.providers;

  route({
    method: 'get',
    path: '/api/providers/catalog',
    summary: 'The provider catalogue: resources/providers.json plus {config_dir}/providers.json (no secrets)',
    response: catalogResponse,
    handler: () => providers.list(),
  });

  route({
    method: 'post',
    path: '/api/providers',
    summary: 'Add a provider from a template: a direct profile, or a proxy upstream plus a profile routed through the proxy; the key is never echoed',
    body: addProviderBody,
    bodyError: E.invalidProviderRequest,
    response: addProviderResponse,
    successStatus: 201,
    handler: ({ body }) => providers.add(body),
  });

  route({
    method: 'post',
    path: '/api/providers/test',
    summary: 'One real, minimal request to a provider (models list, else a one-token message): status, latency, models, what to do',
    body: testProviderBody,
    bodyError: E.invalidProviderRequest,
    response: connectionResult,
    handler: ({ body }) => providers.test(body),
  });

  route({
    method: 'post',
    path: '/api/settings/:profile/test',
    summary: "The connection test on an existing profile: what Claude Code would reach with the profile's env",
    body: testProfileBody,
    bodyError: E.invalidProviderRequest,
    response: connectionResult,
    handler: ({ params, body }) => providers.testProfile(params.profile!, body.timeoutMs),
  });

  router.use(mapProvidersErrors, mapSettingsErrors, mapProxyErrors);
  return router;
}

function mapProvidersErrors(err: unknown, _req: Request, _res: Response, next: NextFunction): void {
  if (err instanceof ProvidersError) {
    const [status, error] = answers[err.kind];
    return next(new ApiError(status, error, err.message));
  }
  next(err);
}
