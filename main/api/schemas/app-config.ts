import { z } from 'zod';
import { appConfigSchema } from '../../services/app-config/schema.js';
import { E } from '../error-texts.js';

export const configResponse = z.object({
  config: appConfigSchema,
  mtime: z.int().nullable().describe('null while config.yaml does not exist'),
  path: z.string(),
});

/** The whole config (as GET gave it, secrets may stay `********`); the service validates it. */
export const configPutBody = z.object({
  config: z.record(z.string(), z.unknown()),
  expectedMtime: z.int().nullable().optional(),
});

export function configPutError(error: z.ZodError): string {
  return error.issues[0]?.path[0] === 'expectedMtime' ? E.invalidExpectedMtime : E.invalidConfig;
}

export const configPutResponse = z.object({
  success: z.literal(true),
  mtime: z.int(),
  config: appConfigSchema,
});
