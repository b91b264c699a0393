import { z } from 'zod';
import { SHARED_TYPES } from '../../services/shared/types.js';

const sharedItem = z.object({
  name: z.string(),
  description: z.string(),
  path: z.string().describe('markdown file relative to the type directory; what /api/shared/content takes'),
  type: z.enum(['command', 'skill', 'agent']),
});

export const sharedListResponse = z.object({ items: z.array(sharedItem) });

/**
 * A bad or repeated value becomes undefined here, so the service answers with the documented
 * text for that parameter instead of one generic query error.
 */
export const sharedContentQuery = z.object({
  type: z.enum(SHARED_TYPES).optional().catch(undefined),
  path: z.string().optional().catch(undefined),
});

export const sharedContentResponse = z.object({
  type: z.enum(SHARED_TYPES),
  path: z.string(),
  content: z.string(),
});

export const sharedSummaryResponse = z.object({
  commands: z.int(),
  skills: z.int(),
  agents: z.int(),
  total: z.int(),
  symlinkStatus: z.enum(['ok', 'partial', 'broken', 'missing']),
});

const linkOutcome = z.object({
  type: z.enum(SHARED_TYPES),
  link: z.string(),
  target: z.string(),
  action: z.enum(['created', 'kept', 'replaced', 'refused']),
  reason: z.string().optional(),
});

export const sharedLinkResponse = sharedSummaryResponse.extend({ links: z.array(linkOutcome) });
