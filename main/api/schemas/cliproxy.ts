import { z } from 'zod';

const backend = z.enum(['original', 'plus']);
const version = z.string().regex(/^v?\d+\.\d+\.\d+(-\d+)?$/, 'a version like 6.9.45 or 7.1.45-1');

export const cliproxyStatusQuery = z.object({ force: z.enum(['true', 'false']).optional() });

export const cliproxyStatusResponse = z.object({
  installed: z.boolean(),
  backend,
  version: z.string().nullable(),
  path: z.string().nullable(),
  pinned: z.string().nullable(),
  latestVersion: z.string().nullable(),
  knownBad: z.array(z.string()),
  running: z.boolean(),
  port: z.number().nullable(),
});

export const cliproxyInstallBody = z.strictObject({ backend: backend.optional(), version: version.optional(), force: z.boolean().optional() });

export const cliproxyInstallResponse = z.object({
  installed: z.literal(true),
  backend,
  version: z.string(),
  previousVersion: z.string().nullable(),
  restarted: z.boolean(),
});

export const cliproxyPinBody = z.strictObject({ version: version.nullable() });
export const cliproxyPinResponse = z.object({ pinned: z.string().nullable() });
export const cliproxyUninstallResponse = z.object({ removed: z.boolean() });
export const cliproxyRunResponse = z.object({ running: z.literal(true), port: z.number(), pid: z.number() });
export const cliproxyStopResponse = z.object({ stopped: z.boolean() });
