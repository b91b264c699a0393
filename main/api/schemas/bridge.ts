import { z } from 'zod';
import { E, type ErrorText } from '../error-texts.js';

const REQUIRED = 'is required';

/** Absent or blank → "is required"; a value of another type → a format problem. */
const credentialField = z
  .string({ error: (issue) => (issue.input === undefined ? REQUIRED : 'must be a string') })
  .trim()
  .min(1, REQUIRED);

/** POST /api/bridge/auth/import */
export const bridgeImportBody = z.object({ accessToken: credentialField, machineId: credentialField });

/** Absent or blank fields (or no object at all) are "missing"; anything else is a format error. */
export function bridgeImportError(error: z.ZodError): ErrorText {
  const issue = error.issues[0];
  const missing = !issue || issue.path.length === 0 || issue.message === REQUIRED;
  return missing ? E.missingCredentialsFields : E.invalidCredentials;
}

const modelName = z.string().trim().max(200);

/** PUT /api/bridge/settings: any subset of the `cursor` section; unknown keys are refused. */
export const bridgeSettingsPatch = z.strictObject({
  enabled: z.boolean().optional(),
  port: z.number().int().min(1).max(65535).optional(),
  auto_start: z.boolean().optional(),
  ghost_mode: z.boolean().optional(),
  model: modelName.min(1).optional(),
  opus_model: modelName.optional(),
  sonnet_model: modelName.optional(),
  haiku_model: modelName.optional(),
  upstream_url: z.url({ protocol: /^https?$/ }).optional(),
});

export const bridgeSection = z.looseObject({
  enabled: z.boolean(),
  port: z.number().int(),
  auto_start: z.boolean(),
  ghost_mode: z.boolean(),
  model: z.string(),
  opus_model: z.string(),
  sonnet_model: z.string(),
  haiku_model: z.string(),
  upstream_url: z.string(),
});

export const bridgeStatusResponse = z.object({
  enabled: z.boolean(),
  authenticated: z.boolean(),
  authMethod: z.enum(['auto-detect', 'manual']).nullable(),
  tokenAgeHours: z.number().nullable(),
  tokenExpired: z.boolean(),
  expiresAt: z.number().int().nullable(),
  daemonRunning: z.boolean(),
  pid: z.number().int().nullable(),
  port: z.number().int(),
  autoStart: z.boolean(),
  ghostMode: z.boolean(),
});

export const bridgeImportResponse = z.object({ success: z.literal(true), message: z.string() });

export const bridgeModelsResponse = z.object({
  models: z.array(z.object({ id: z.string(), name: z.string(), provider: z.string(), isDefault: z.boolean() })),
  current: z.string(),
});

export const bridgeStartResponse = z.object({ success: z.literal(true), pid: z.number().int(), port: z.number().int() });
export const bridgeStopResponse = z.object({ success: z.literal(true), stopped: z.boolean() });
export const bridgeSettingsUpdateResponse = z.object({ success: z.literal(true), cursor: bridgeSection });
