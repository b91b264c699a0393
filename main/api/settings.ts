import { Router } from 'express';
import { routeOn } from './route.js';
import type { RouterDeps } from './routers.js';
import {
  profileSettingsResponse,
  settingsDeleteResponse,
  settingsUpdateBody,
  settingsUpdateError,
  settingsUpdateResponse,
} from './schemas/settings.js';
import { mapSettingsErrors } from './settings-errors.js';

/** Profile settings (spec 4.1); the profile list is the profiles router's. */
export function createSettingsRouter({ services, registry }: RouterDeps): Router {
  const router = Router();
  const route = routeOn(router, registry, 'settings');
  const settings = services.settings;

  route({
    method: 'get',
    path: '/api/settings/:profile',
    summary: 'Profile settings with sensitive env values masked as ********',
    response: profileSettingsResponse,
    handler: ({ params }) => settings.get(params.profile!, { raw: false }),
  });

  route({
    method: 'get',
    path: '/api/settings/:profile/raw',
    summary: 'Profile settings unmasked (no-store)',
    response: profileSettingsResponse,
    noStore: true,
    handler: ({ params }) => settings.get(params.profile!, { raw: true }),
  });

  route({
    method: 'put',
    path: '/api/settings/:profile',
    summary: 'Replace profile settings: optimistic lock on expectedMtime, backup, atomic write',
    body: settingsUpdateBody,
    bodyError: settingsUpdateError,
    response: settingsUpdateResponse,
    handler: async ({ params, body }) => {
      const answer = await settings.put(params.profile!, body);
      await services.claudeCode.followProfileEdit(params.profile!); // settings.json follows an edit of the profile applied there
      services.profiles.announce('settings', [params.profile!]);
      return answer;
    },
  });

  route({
    method: 'delete',
    path: '/api/settings/:profile',
    summary: 'Delete a profile: its file moves to backups/ (backup naming); the default is cleared when it was this one',
    response: settingsDeleteResponse,
    handler: ({ params }) => services.profiles.remove(params.profile!),
  });

  router.use(mapSettingsErrors);
  return router;
}
