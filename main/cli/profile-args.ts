import { CliError } from './args.js';

export interface ProfileArgs {
  profile?: string;
  /** `--name value` / `--name=value` options the command declared. */
  options: Record<string, string>;
  /** Everything after `--`, untouched. */
  rest: string[];
}

/**
 * `[profile] [--option value]... [-- rest...]` for run and env. Anything unexpected is a usage
 * error, so a mistyped flag never reaches the agent as an argument nobody meant.
 */
export function parseProfileArgs(argv: string[], command: string, optionNames: readonly string[]): ProfileArgs {
  const dashes = argv.indexOf('--');
  const own = dashes < 0 ? argv : argv.slice(0, dashes);
  const rest = dashes < 0 ? [] : argv.slice(dashes + 1);
  const options: Record<string, string> = {};
  let profile: string | undefined;
  for (let i = 0; i < own.length; i++) {
    const arg = own[i]!;
    if (arg.startsWith('-')) {
      const eq = arg.indexOf('=');
      const name = eq > 0 ? arg.slice(0, eq) : arg;
      if (!optionNames.includes(name)) throw new CliError(`unknown option '${arg}' for '${command}'${command === 'run' ? ' (put agent arguments after --)' : ''}`);
      const value = eq > 0 ? arg.slice(eq + 1) : own[++i];
      if (value === undefined || value === '') throw new CliError(`${name} needs a value`);
      options[name] = value;
    } else if (profile === undefined) {
      profile = arg;
    } else {
      throw new CliError(`unexpected argument '${arg}' for '${command}'${command === 'run' ? ' (put agent arguments after --)' : ''}`);
    }
  }
  return { ...(profile !== undefined ? { profile } : {}), options, rest };
}

/** Whether `flag` appears among the command's own arguments (before `--`). */
export function hasOwnFlag(argv: string[], ...flags: string[]): boolean {
  const dashes = argv.indexOf('--');
  return (dashes < 0 ? argv : argv.slice(0, dashes)).some((a) => flags.includes(a));
}
