import { Router, type NextFunction, type Request, type Response } from 'express';
import { ClaudeCodeError, type ClaudeCodeErrorKind } from '../services/claude-code/errors.js';
import { E, type ErrorText } from './error-texts.js';
import { ApiError } from './errors.js';
import { routeOn } from './route.js';
import type { RouterDeps } from './routers.js';
import { claudeCodeApplyBody, claudeCodeApplyResponse, claudeCodeStatusResponse, claudeCodeUndoResponse } from './schemas/claude-code.js';
import { mapSettingsErrors } from './settings-errors.js';

const answers: Record<ClaudeCodeErrorKind, [number, ErrorText]> = {
  'invalid-json': [422, E.claudeSettingsInvalid],
  unreadable: [422, E.claudeSettingsUnreadable],
  'too-large': [413, E.fileTooLarge],
  'read-only': [409, E.claudeSettingsReadOnly],
  busy: [409, E.modifiedExternally],
  'nothing-to-undo': [404, E.nothingToUndo],
  'nothing-to-restore': [404, E.nothingToRestore],
  'write-failed': [500, E.writeSettingsFailed],
};

/** Claude Code's own `{agent_dir}/settings.json`: apply a profile's env there (opt-in) and undo it. */
export function createClaudeCodeRouter({ services, registry }: RouterDeps): Router {
  const router = Router();
  const route = routeOn(router, registry, 'claude-code');
  const claudeCode = services.claudeCode;

  route({
    method: 'get',
    path: '/api/claude-code',
    summary: "Claude Code's settings.json: which profile Switchboard applied there, whether it was edited since, whether undo is possible",
    response: claudeCodeStatusResponse,
    handler: () => claudeCode.status(),
  });

  route({
    method: 'post',
    path: '/api/claude-code/apply',
    summary: "Merge a profile's env (as launched) into settings.json `env`; every other key kept, backup first",
    body: claudeCodeApplyBody,
    bodyError: E.invalidProfile,
    response: claudeCodeApplyResponse,
    handler: async ({ body }) => {
      const answer = await claudeCode.apply(body.profile);
      services.profiles.announce('claude-code', [body.profile]);
      return answer;
    },
  });

  route({
    method: 'post',
    path: '/api/claude-code/undo',
    summary: 'One step back: settings.json exactly as it was before the last apply (removed if there was none); repeat to walk back further',
    response: claudeCodeUndoResponse,
    handler: async () => {
      const answer = await claudeCode.undo();
      services.profiles.announce('claude-code');
      return answer;
    },
  });

  route({
    method: 'post',
    path: '/api/claude-code/restore',
    summary: "Restore my original settings: settings.json byte for byte as before Switchboard's first apply; forgets every apply",
    response: claudeCodeUndoResponse,
    handler: async () => {
      const answer = await claudeCode.restore();
      services.profiles.announce('claude-code');
      return answer;
    },
  });

  router.use(mapClaudeCodeErrors, mapSettingsErrors);
  return router;
}

function mapClaudeCodeErrors(err: unknown, _req: Request, _res: Response, next: NextFunction): void {
  if (!(err instanceof ClaudeCodeError)) return next(err);
  const [status, error] = answers[err.kind];
  next(new ApiError(status, error, err.message));
}
