import { z } from 'zod';
import { E } from '../error-texts.js';

/** decisions §4.1 shapes of the accounts area. */
export const accountView = z.object({
  provider: z.string(),
  accountId: z.string(),
  email: z.string().nullable(),
  label: z.string(),
  status: z.enum(['active', 'paused', 'expired', 'error']),
  expiresAt: z.int().nullable(),
  lastRefresh: z.int().nullable(),
  lastError: z.string().optional(),
  models: z.array(z.string()),
  file: z.string(),
  /** The auth file's `priority` (CLIProxyAPI's field): higher drains first; 0 when absent. */
  priority: z.int(),
  /** The running engine rests the account until then (ms), and why. */
  coolingUntil: z.int().optional(),
  coolingReason: z.string().optional(),
});

export const accountsListResponse = z.object({ accounts: z.array(accountView) });
export const accountResponse = z.object({ account: accountView });
export const accountRemoveResponse = z.object({ removed: z.literal(true), account: accountView, backupPath: z.string() });

/** `idc`, `startUrl`, `region`: Kiro's IAM Identity Center (the service checks them). */
export const signInBody = z.object({
  method: z.enum(['browser', 'device', 'paste', 'idc']).optional(),
  acknowledge: z.boolean().optional(),
  startUrl: z.string().max(2048).optional(),
  region: z.string().max(64).optional(),
  /** gemini: the Code Assist Standard/Enterprise project (checked by the service, so the CLI gets the same answer). */
  projectId: z.string().max(200).optional(),
});
/** A bad `projectId` is named as such; anything else in the body is a bad method (the documented text). */
export function signInError(error: z.ZodError): string {
  return error.issues.some((i) => i.path[0] === 'projectId') ? E.invalidProjectId : E.invalidSignInMethod;
}
export const signInStartResponse = z.object({ signInId: z.string(), url: z.string(), userCode: z.string().optional(), expiresAt: z.int() });
export const signInStateResponse = z.object({
  status: z.enum(['waiting', 'ok', 'error', 'expired', 'cancelled']),
  account: accountView.optional(),
  error: z.string().optional(),
});

export const callbackBody = z.object({ url: z.string().min(1) });
export const callbackError = E.missingCallbackUrl;

export const importBody = z.object({ path: z.string().min(1).max(4096).optional() });

/** An account's place in its provider's drain order (issue 31): higher first. */
export const priorityBody = z.object({ priority: z.int().min(-1000).max(1000) });
export const priorityError = E.invalidPriority;
