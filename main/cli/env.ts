import { launchEnv } from '../services/profiles/launch-env.js';
import { CliError } from './args.js';
import { processIo, type CliIo } from './io.js';
import { escapeControls } from '../infra/terminal-text.js';
import { parseProfileArgs } from './profile-args.js';
import { ProfileSource } from './profile-source.js';
import { defaultShell, evalHint, exportLines, SHELLS, type Shell } from './shell-export.js';

export const ENV_USAGE = `Usage: switchboard env [profile] [--shell bash|zsh|fish|powershell]

Prints the lines that set the profile's env in your shell, as \`switchboard run\` would give it to
the agent (PROVIDER_<X> also as ANTHROPIC_<X>). Without a profile name: the default profile.
The shell defaults to your login shell ($SHELL), PowerShell on Windows, else bash.

  bash, zsh    eval "$(switchboard env glm)"
  fish         switchboard env glm --shell fish | source
  PowerShell   switchboard env glm --shell powershell | Out-String | Invoke-Expression

Options:
  --shell NAME   bash, zsh, fish or powershell
  -h, --help     show this help
  --version      print Switchboard's version
`;

/** `switchboard env`: 0 with the lines on stdout; 2 (CliError) for an unknown profile or shell. */
export async function runEnv(argv: string[], env: NodeJS.ProcessEnv = process.env, io: CliIo = processIo): Promise<number> {
  const args = parseProfileArgs(argv, 'env', ['--shell']);
  if (args.rest.length > 0) throw new CliError(`unexpected argument '${args.rest[0]}' for 'env'`);
  const shell = args.options['--shell'] ?? defaultShell(env);
  if (!(SHELLS as readonly string[]).includes(shell)) throw new CliError(`unknown shell '${shell}' (one of: ${SHELLS.join(', ')})`);
  const profile = await new ProfileSource(env).resolve(args.profile);
  const { text, skipped } = exportLines(launchEnv(profile.data.env), shell as Shell);
  for (const key of skipped) io.err(`switchboard: left out env key ${escapeControls(JSON.stringify(key))} of profile '${profile.name}': not a variable name or holds a NUL\n`);
  io.out(`# Switchboard profile ${profile.name}; load with: ${evalHint(shell as Shell, profile.name)}\n${text}`);
  return 0;
}
