import { Router } from 'express';
import { E } from './error-texts.js';
import { routeOn } from './route.js';
import type { RouterDeps } from './routers.js';
import {
  applyPresetBody,
  applyPresetError,
  applyPresetResponse,
  modelSuggestionsResponse,
  routeThroughProxyResponse,
  setDefaultBody,
  setDefaultResponse,
} from './schemas/profiles.js';
import { profilesResponse } from './schemas/settings.js';
import { mapSettingsErrors } from './settings-errors.js';

/** Switching between profiles (decisions §2, issue 18): the default, presets applied, the proxy route. */
export function createProfilesRouter({ services, registry }: RouterDeps): Router {
  const router = Router();
  const route = routeOn(router, registry, 'profiles');
  const profiles = services.profiles;

  route({
    method: 'get',
    path: '/api/profiles',
    summary: 'Every profile with a settings file, sorted by name: default marker, endpoint host, model, whether it uses the local proxy',
    response: profilesResponse,
    handler: () => profiles.list(),
  });

  route({
    method: 'put',
    path: '/api/profiles/default',
    summary: 'Make a profile the default (config.yaml `default`): what `switchboard run` and the tray use',
    body: setDefaultBody,
    bodyError: E.invalidProfile,
    response: setDefaultResponse,
    handler: ({ body }) => profiles.setDefault(body.profile),
  });

  route({
    method: 'get',
    path: '/api/profiles/model-suggestions',
    summary: 'Model ids for model fields: served by the running proxy, seen in usage, named in presets',
    response: modelSuggestionsResponse,
    handler: () => services.modelSuggestions(),
  });

  route({
    method: 'post',
    path: '/api/profiles/:profile/route-through-proxy',
    summary: "Point a profile (created when missing) at the local proxy with the proxy's API key",
    response: routeThroughProxyResponse,
    handler: ({ params }) => profiles.routeThroughProxy(params.profile!),
  });

  route({
    method: 'post',
    path: '/api/settings/:profile/presets/:name/apply',
    summary: "Write a preset's models into the profile's env (backup, lock, optional expectedMtime)",
    body: applyPresetBody,
    bodyError: applyPresetError,
    response: applyPresetResponse,
    handler: ({ params, body }) => profiles.applyPreset(params.profile!, params.name!, body.expectedMtime),
  });

  router.use(mapSettingsErrors);
  return router;
}
