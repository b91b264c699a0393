import { Router } from 'express';
import { routeOn } from './route.js';
import type { RouterDeps } from './routers.js';
import { presetBody, presetDeletedResponse, presetError, presetResponse, presetsResponse } from './schemas/presets.js';
import { mapSettingsErrors } from './settings-errors.js';

/** Named model presets of a profile (spec 4.1, decisions §2). */
export function createPresetsRouter({ services, registry }: RouterDeps): Router {
  const router = Router();
  const route = routeOn(router, registry, 'presets');
  const presets = services.presets;

  route({
    method: 'get',
    path: '/api/settings/:profile/presets',
    summary: "The profile's presets ([] when the profile has no settings file yet)",
    response: presetsResponse,
    handler: async ({ params }) => ({ presets: await presets.list(params.profile!) }),
  });

  route({
    method: 'post',
    path: '/api/settings/:profile/presets',
    summary: 'Add a preset; creates the settings file when missing',
    body: presetBody,
    bodyError: presetError,
    response: presetResponse,
    successStatus: 201,
    handler: async ({ params, body }) => {
      const preset = await presets.add(params.profile!, body);
      services.profiles.announce('presets', [params.profile!]);
      return { preset };
    },
  });

  route({
    method: 'delete',
    path: '/api/settings/:profile/presets/:name',
    summary: 'Remove a preset by name',
    response: presetDeletedResponse,
    handler: async ({ params }) => {
      await presets.remove(params.profile!, params.name!);
      services.profiles.announce('presets', [params.profile!]);
      return { success: true };
    },
  });

  router.use(mapSettingsErrors);
  return router;
}
