import { z } from 'zod';
import { E } from '../error-texts.js';

/** PUT /api/settings/auth/tokens: each optional, at least one (checked by the service). */
export const tokensUpdateBody = z.object({
  apiKey: z.string().optional(),
  managementSecret: z.string().optional(),
});
export type TokensUpdateBody = z.output<typeof tokensUpdateBody>;

/** A body that is no object names neither token; a non-string token is an invalid value. */
export function tokensUpdateError(error: z.ZodError): string {
  return error.issues[0]?.path[0] === undefined ? E.tokensRequired : E.invalidToken;
}

const tokenState = z.object({ value: z.string(), isCustom: z.boolean() });

export const tokensResponse = z.object({ apiKey: tokenState, managementSecret: tokenState });

const changeFields = {
  success: z.literal(true),
  message: z.string(),
  restartRequired: z.boolean(),
  warning: z.string().optional(),
};

const updatedProfiles = z.array(z.string());

export const tokensChangeResponse = z.object({ apiKey: tokenState, managementSecret: tokenState, ...changeFields, updatedProfiles });
export const secretChangeResponse = z.object({ managementSecret: tokenState, ...changeFields });
export const apiKeyChangeResponse = z.object({ apiKey: tokenState, ...changeFields, updatedProfiles });

export const accountResetResponse = z.object({ success: z.literal(true), message: z.string() });
