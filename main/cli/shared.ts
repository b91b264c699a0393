import { createPaths, resolveHomes } from '../infra/paths.js';
import type { LinkOutcome } from '../services/shared/link.js';
import { SharedService } from '../services/shared/service.js';
import { CliError } from './args.js';
import { processIo, terminalIo, type CliIo } from './io.js';

export const SHARED_USAGE = `Usage: switchboard shared <command>

Commands:
  link    link {config_dir}/shared/{commands,skills,agents} into the agent data dir
          (creates the targets when missing; never deletes files)
`;

/** `switchboard shared link`: 0 when all three links are in place, 1 with the reasons otherwise. */
export async function runShared(argv: string[], env: NodeJS.ProcessEnv = process.env, io: CliIo = processIo): Promise<number> {
  io = terminalIo(io); // file names and reasons are shown, never sent raw (terminal-text.ts)
  const [sub, ...rest] = argv;
  if (sub === 'help' || sub === '--help' || sub === '-h') {
    io.out(SHARED_USAGE);
    return 0;
  }
  if (sub !== 'link') throw new CliError(sub ? `unknown shared command '${sub}'\n\n${SHARED_USAGE}` : `missing shared command\n\n${SHARED_USAGE}`);
  if (rest.length > 0) throw new CliError(`unexpected argument '${rest[0]}' for 'shared link'`);
  const paths = createPaths(resolveHomes(env));
  const result = await new SharedService({ sharedDir: paths.sharedDir, agentDir: paths.agentDir }).link();
  for (const outcome of result.outcomes) (outcome.action === 'refused' ? io.err : io.out)(describe(outcome));
  const { commands, skills, agents, symlinkStatus } = result.summary;
  if (!result.ok) {
    io.err(`switchboard: shared data is not fully linked (symlinkStatus: ${symlinkStatus})\n`);
    return 1;
  }
  io.out(`Shared data linked (symlinkStatus: ${symlinkStatus}): ${commands} commands, ${skills} skills, ${agents} agents\n`);
  return 0;
}

function describe(o: LinkOutcome): string {
  switch (o.action) {
    case 'created':
      return `created  ${o.link} -> ${o.target}\n`;
    case 'replaced':
      return `replaced ${o.link} -> ${o.target}\n`;
    case 'kept':
      return `ok       ${o.link} -> ${o.target}\n`;
    case 'refused':
      return `refused  ${o.link}: ${o.reason ?? 'unknown reason'}\n`;
  }
}
