import { z } from 'zod';
import { E } from '../error-texts.js';

const REQUIRED = new Set<PropertyKey>(['name', 'default']);

/** POST /api/settings/:profile/presets (spec 2.2, decisions §2); unknown fields must be strings too. */
export const presetBody = z
  .object({
    name: z.string().trim().min(1).max(64),
    default: z.string().trim().min(1),
    opus: z.string().optional(),
    sonnet: z.string().optional(),
    haiku: z.string().optional(),
  })
  .catchall(z.string());
export type PresetBody = z.output<typeof presetBody>;

/** Missing or bad name/default (or no object at all) is the documented text; other fields get theirs. */
export function presetError(error: z.ZodError): string {
  const field = error.issues[0]?.path[0];
  return field === undefined || REQUIRED.has(field) ? E.presetFieldsRequired : E.invalidPreset;
}

const preset = z.looseObject({
  name: z.string(),
  default: z.string(),
  opus: z.string().optional(),
  sonnet: z.string().optional(),
  haiku: z.string().optional(),
});

export const presetResponse = z.object({ preset });
export const presetsResponse = z.object({ presets: z.array(preset) });
export const presetDeletedResponse = z.object({ success: z.literal(true) });
