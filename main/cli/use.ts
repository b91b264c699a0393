import { FileLockBusyError } from '../infra/inter-process-lock.js';
import { SettingsError } from '../services/settings/errors.js';
import { CliError } from './args.js';
import { processIo, terminalIo, type CliIo } from './io.js';
import { ProfileSource } from './profile-source.js';
import { escapeControls as shown } from '../infra/terminal-text.js';

export const USE_USAGE = `Usage: switchboard use [profile]

Makes the profile the default: what \`switchboard run\`, \`switchboard env\` and the tray use when
no profile is named. Without a name: lists the profiles, the default marked with *.

Options:
  -h, --help     show this help
  --version      print Switchboard's version
`;

/** `switchboard use`: sets or shows the default profile. */
export async function runUse(argv: string[], env: NodeJS.ProcessEnv = process.env, io: CliIo = processIo): Promise<number> {
  io = terminalIo(io); // a profile's base URL and model are shown, never sent to the terminal raw
  const [name, ...rest] = argv;
  if (rest.length > 0) throw new CliError(`unexpected argument '${rest[0]}' for 'use'`);
  if (name?.startsWith('-')) throw new CliError(`unknown option '${name}' for 'use'`);
  const source = new ProfileSource(env);
  if (name === undefined) return list(source, io);
  const profile = await source.resolve(name);
  try {
    await source.configured((p) => p.setDefault(profile.name));
  } catch (err) {
    if (err instanceof SettingsError || err instanceof FileLockBusyError) throw new CliError(err.message);
    throw err;
  }
  const card = (await source.profiles.list()).profiles.find((p) => p.name === profile.name);
  const detail = [card?.baseUrl, card?.model, card?.usesProxy ? 'via proxy' : null].filter(Boolean).map((t) => shown(t!)).join(', ');
  io.out(`Default profile: ${profile.name}${detail ? ` (${detail})` : ''}\n`);
  return 0;
}

async function list(source: ProfileSource, io: CliIo): Promise<number> {
  const { profiles } = await source.configured((p) => p.list());
  if (profiles.length === 0) {
    io.out(`No profiles yet in ${source.paths.configDir} (create one in the dashboard's Profiles page)\n`);
    return 0;
  }
  const width = Math.max(...profiles.map((p) => shown(p.name).length));
  for (const p of profiles) {
    const detail = [p.baseUrl ?? 'no base URL', p.model ?? 'no model', p.usesProxy ? 'via proxy' : null].filter(Boolean).map((t) => shown(t!)).join('  ');
    io.out(`${p.default ? '*' : ' '} ${shown(p.name).padEnd(width)}  ${detail}\n`);
  }
  return 0;
}
