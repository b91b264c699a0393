import { z } from 'zod';

/** GET /api/claude-code. */
export const claudeCodeStatusResponse = z.object({
  path: z.string(),
  exists: z.boolean(),
  applied: z.object({ profile: z.string(), appliedAt: z.int(), keys: z.array(z.string()) }).nullable(),
  editedSince: z.boolean(),
  canUndo: z.boolean(),
  undoSteps: z.int(),
  canRestore: z.boolean(),
  staleKeys: z.array(z.string()),
});

/** POST /api/claude-code/apply. */
export const claudeCodeApplyBody = z.object({ profile: z.string() });
export const claudeCodeApplyResponse = z.object({
  success: z.literal(true),
  path: z.string(),
  profile: z.string(),
  keys: z.array(z.string()),
  backupPath: z.string().nullable(),
  mode: z.string(),
  narrowed: z.boolean(),
});

/** POST /api/claude-code/undo and /restore. */
export const claudeCodeUndoResponse = z.object({
  success: z.literal(true),
  path: z.string(),
  restored: z.literal(true),
  backupPath: z.string().nullable(),
  undoSteps: z.int(),
});
