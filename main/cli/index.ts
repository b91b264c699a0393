import { CliError } from './args.js';

const USAGE = `Usage: switchboard <command>

Commands:
  serve [--port N]     run the management API and dashboard headless (default port 3000)
  shared link          link {config_dir}/shared/{commands,skills,agents} into the agent data dir
  usage <report>       token and cost reports in the terminal: daily, monthly, session, projects,
                       models (--since, --until, --tz, --mode, --json; see 'usage --help')
  bridge <command>     legacy editor bridge (deprecated, beta): auth, status, models, start, stop,
                       enable, disable, help ('switchboard cursor ...' still works)
  help                 show this help
`;

type Command = (argv: string[]) => Promise<number>;

/**
 * Subcommands; areas add theirs here (bridge, shared, ...). Each loads its modules when run, so
 * `serve` starts listening without first loading the bridge's.
 */
export const commands: Record<string, Command> = {
  serve: async (argv) => (await import('./serve.js')).runServe(argv),
  bridge: async (argv) => (await import('./bridge.js')).runBridge(argv),
  cursor: async (argv) => (await import('./bridge.js')).runCursorAlias(argv),
  shared: async (argv) => (await import('./shared.js')).runShared(argv),
  usage: async (argv) => (await import('./usage.js')).runUsage(argv),
  help: async () => {
    process.stdout.write(USAGE);
    return 0;
  },
};

export async function main(argv: string[]): Promise<number> {
  const [name, ...rest] = argv;
  const command = name ? commands[name] : undefined;
  if (!command) {
    process.stderr.write(name ? `switchboard: unknown command '${name}'\n\n${USAGE}` : USAGE);
    return 2;
  }
  try {
    return await command(rest);
  } catch (err) {
    if (err instanceof CliError) {
      process.stderr.write(`switchboard: ${err.message}\n`);
      return 2;
    }
    throw err;
  }
}
