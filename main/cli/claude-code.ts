import { ClaudeCodeService } from '../services/claude-code/claude-code-service.js';
import { ClaudeCodeError } from '../services/claude-code/errors.js';
import { CliError } from './args.js';
import { processIo, type CliIo } from './io.js';
import { ProfileSource } from './profile-source.js';

export const CLAUDE_CODE_USAGE = `Usage: switchboard claude-code <command>

Claude Code's own settings file ({agent_dir}/settings.json), which "Use for Claude Code" in the
dashboard writes a profile's env into. The same as the dashboard's Claude Code card and
POST /api/claude-code/{undo,restore}; no running app is needed.

Commands:
  status    which profile is applied there, and how many steps Undo can go back
  undo      one step back: the file as it was before the last apply
  restore   restore my original settings: the file byte for byte as it was before
            Switchboard's first apply (removed if there was none); forgets every apply
`;

/** `switchboard claude-code status|undo|restore`. */
export async function runClaudeCode(argv: string[], env: NodeJS.ProcessEnv = process.env, io: CliIo = processIo): Promise<number> {
  const [sub, ...rest] = argv;
  if (sub === 'help' || sub === '--help' || sub === '-h') {
    io.out(CLAUDE_CODE_USAGE);
    return 0;
  }
  if (sub !== 'status' && sub !== 'undo' && sub !== 'restore') {
    throw new CliError(sub ? `unknown claude-code command '${sub}'\n\n${CLAUDE_CODE_USAGE}` : `missing claude-code command\n\n${CLAUDE_CODE_USAGE}`);
  }
  if (rest.length > 0) throw new CliError(`unexpected argument '${rest[0]}' for 'claude-code ${sub}'`);
  const source = new ProfileSource(env);
  const service = new ClaudeCodeService(source.ctx, source.store);
  try {
    if (sub === 'status') {
      const s = await service.status();
      if (!s.applied) io.out(`No profile applied to ${s.path}${s.canRestore ? '' : ' (Switchboard has not changed it)'}\n`);
      else io.out(`${s.applied.profile} applied to ${s.path}${s.editedSince ? ' (edited since)' : ''}; Undo can go back ${s.undoSteps} step(s)\n`);
      if (s.staleKeys.length > 0) io.out(`Claude Code still uses the old values of ${s.staleKeys.join(', ')}: apply ${s.applied?.profile} again\n`);
      return 0;
    }
    const done = sub === 'undo' ? await service.undo() : await service.restore();
    const what = sub === 'undo' ? `one step back (${done.undoSteps} left)` : 'back as it was before Switchboard first changed it';
    io.out(`${done.path} is ${what}${done.backupPath ? `; the file it replaced is in ${done.backupPath}` : ''}\n`);
    return 0;
  } catch (err) {
    if (err instanceof ClaudeCodeError) throw new CliError(err.message);
    throw err;
  }
}
