import { z } from 'zod';
import { E } from '../error-texts.js';

/** PUT /api/profiles/default. */
export const setDefaultBody = z.object({ profile: z.string() });
export const setDefaultResponse = z.object({ success: z.literal(true), default: z.string() });

/** POST /api/settings/:profile/presets/:name/apply. */
export const applyPresetBody = z.object({ expectedMtime: z.int().optional() });
export const applyPresetError = E.invalidExpectedMtime;
export const applyPresetResponse = z.object({
  profile: z.string(),
  mtime: z.int(),
  created: z.boolean(),
  backupPath: z.string().optional(),
  applied: z.string(),
});

export const modelSuggestionsResponse = z.object({
  models: z.array(z.object({ id: z.string(), sources: z.array(z.enum(['proxy', 'usage', 'presets'])) })),
});

/** POST /api/profiles/:profile/route-through-proxy takes `{}` (any fields are ignored). */
export const routeThroughProxyResponse = z.object({
  success: z.literal(true),
  profile: z.string(),
  created: z.boolean(),
  mtime: z.int(),
  baseUrl: z.string(),
});

