import { z } from 'zod';
import { E } from '../error-texts.js';

const binaryInfo = z.object({ installed: z.boolean(), path: z.string().nullable(), version: z.string().nullable() });

export const diagnosticsResponse = z.object({
  binary: binaryInfo,
  settingsFile: z.object({
    path: z.string(),
    exists: z.boolean(),
    mtime: z.int().nullable(),
    sizeBytes: z.int().nullable(),
    parseError: z.string().nullable(),
  }),
  warnings: z.array(z.string()),
  tool: z.object({ binary: z.string(), name: z.string().nullable(), source: z.enum(['config', 'detected', 'none']) }),
  detected: z.array(z.object({ binary: z.string(), name: z.string(), path: z.string() })),
});

export const agentSettingsResponse = z.object({
  path: z.string(),
  exists: z.boolean(),
  mtime: z.int().nullable(),
  content: z.string(),
  settings: z.record(z.string(), z.unknown()).nullable(),
  parseError: z.string().nullable(),
  diagnostics: diagnosticsResponse,
});

/** `expectedMtime: null` means "I saw no file"; absent means "no check". */
export const agentSettingsPutBody = z.object({
  content: z.string(),
  expectedMtime: z.int().nullable().optional(),
});

export function agentSettingsPutError(error: z.ZodError): string {
  return error.issues[0]?.path[0] === 'expectedMtime' ? E.invalidExpectedMtime : E.missingContent;
}

export const agentSettingsPutResponse = z.object({
  success: z.literal(true),
  mtime: z.int(),
  backupPath: z.string().optional(),
});
