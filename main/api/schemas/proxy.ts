import { z } from 'zod';
import { E } from '../error-texts.js';

/** Spec 2.6 shapes of the proxy area, with decisions §4's additions. */
export const proxyStatusResponse = z.union([
  z.object({ running: z.literal(false) }),
  z.object({ running: z.literal(true), port: z.int(), pid: z.int(), sessionCount: z.int(), startedAt: z.int() }),
]);

export const proxyStartResponse = z.object({ started: z.boolean(), alreadyRunning: z.boolean(), port: z.int() });

export const proxyStopResponse = z.union([
  z.object({ stopped: z.literal(true), pid: z.int(), sessionCount: z.int() }),
  z.object({ stopped: z.literal(false), message: z.string() }),
]);

/** `restarted` false: the proxy was not running and has been started (issue 28.7). */
export const proxyRestartResponse = z.object({ restarted: z.boolean(), port: z.int(), pid: z.int(), updatedProfiles: z.array(z.string()) });

export const updateCheckResponse = z.object({
  hasUpdate: z.boolean(),
  currentVersion: z.string(),
  latestVersion: z.string(),
  fromCache: z.boolean(),
  /** ms of the feed answer this reflects; null when the feed was never reached (decisions §4, revised). */
  checkedAt: z.int().nullable(),
  /** Why this check did not reach the feed. */
  error: z.string().optional(),
  /** The managed CLIProxyAPI when installed (decisions §4.1): latestVersion = newest allowed (pin, known-bad). */
  cliproxy: z.object({ currentVersion: z.string(), latestVersion: z.string(), hasUpdate: z.boolean(), error: z.string().optional() }).optional(),
});

/** `?force=true` ("Check again") skips a fresh cached answer. */
export const updateCheckQuery = z.object({ force: z.enum(['true', 'false']).optional() });

const modelEntry = z.object({ id: z.string(), object: z.string(), created: z.int(), owned_by: z.string() });

export const modelListResponse = z.object({
  models: z.array(modelEntry),
  byCategory: z.record(z.string(), z.array(modelEntry)),
  totalCount: z.int(),
});

export const errorLogsResponse = z.object({
  files: z.array(
    z.object({
      name: z.string(),
      size: z.int(),
      mtime: z.int(),
      absolutePath: z.string(),
      /** null when the log has no response section with a Status line (e.g. a cut-off stream). */
      statusCode: z.int().nullable(),
      /** null when the request body names no model. */
      model: z.string().nullable(),
    }),
  ),
});

/** `expectedMtime: null` means "I saw no file"; absent means "no check". */
export const proxyConfigPutBody = z.object({
  content: z.string(),
  expectedMtime: z.int().nullable().optional(),
});

export function proxyConfigPutError(error: z.ZodError): string {
  return error.issues[0]?.path[0] === 'expectedMtime' ? E.invalidExpectedMtime : E.missingContent;
}

export const proxyConfigPutResponse = z.object({
  success: z.literal(true),
  path: z.string(),
  mtime: z.int(),
  backupPath: z.string().optional(),
  updatedProfiles: z.array(z.string()),
});

export const authFilesResponse = z.object({
  files: z.array(z.object({ name: z.string(), size: z.int(), mtime: z.int() })),
  directory: z.string(),
});

export const authFileDownloadQuery = z.object({ name: z.string().min(1) });

export const quotaResponse = z.object({
  provider: z.string(),
  accountId: z.string(),
  unit: z.enum(['percent', 'requests', 'credits', 'none']),
  quotas: z.array(
    z.object({ model: z.string(), limit: z.int(), used: z.int(), remaining: z.int(), resetAt: z.int().nullable() }),
  ),
});
