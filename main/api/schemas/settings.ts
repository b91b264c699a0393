import { z } from 'zod';
import { E } from '../error-texts.js';

/** PUT /api/settings/:profile. `env` maps string keys to string values (spec 2.1); other fields pass through. */
export const settingsUpdateBody = z.object({
  settings: z.looseObject({ env: z.record(z.string(), z.string()) }),
  expectedMtime: z.int().optional(),
});
export type SettingsUpdateBody = z.output<typeof settingsUpdateBody>;

/** A bad expectedMtime is not a missing settings object: each gets its own 400 text. */
export function settingsUpdateError(error: z.ZodError): string {
  return error.issues[0]?.path[0] === 'expectedMtime' ? E.invalidExpectedMtime : E.settingsRequired;
}

export const profileSettingsResponse = z.object({
  profile: z.string(),
  settings: z.looseObject({ env: z.record(z.string(), z.unknown()).optional() }),
  mtime: z.int(),
  path: z.string(),
});

export const settingsUpdateResponse = z.object({
  profile: z.string(),
  mtime: z.int(),
  created: z.boolean(),
  backupPath: z.string().optional(),
  warning: z.string().optional(),
  missingFields: z.array(z.string()).optional(),
});

/** DELETE /api/settings/:profile (issue 28.5): the file moved to backups/. */
export const settingsDeleteResponse = z.object({
  success: z.literal(true),
  profile: z.string(),
  backupPath: z.string(),
  defaultCleared: z.boolean(),
});

/** GET /api/profiles (decisions §2, issue 18): each profile with what a switcher shows. */
export const profilesResponse = z.object({
  profiles: z.array(
    z.object({
      name: z.string(),
      path: z.string(),
      mtime: z.int(),
      default: z.literal(true).optional(),
      /** host[:port] of the base URL only: no scheme, path or credentials. */
      baseUrl: z.string().nullable(),
      model: z.string().nullable(),
      usesProxy: z.boolean(),
    }),
  ),
  default: z.string().nullable(),
});
