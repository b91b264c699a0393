import { appVersion } from '../infra/app-version.js';
import { CliError } from './args.js';
import { hasOwnFlag } from './profile-args.js';
import { terminalText } from '../infra/terminal-text.js';

const USAGE = `Usage: switchboard <command> [options]

Commands:
  run [profile] [--agent BIN] [-- args]
                       start the coding agent (claude) with a profile's env (default: the default profile)
  env [profile] [--shell bash|zsh|fish|powershell]
                       print the lines that set a profile's env in your shell (for eval)
  use [profile]        make a profile the default; without a name, list the profiles
  providers            the API provider catalogue (GLM, Kimi, DeepSeek, OpenRouter, ...)
  add <provider> [--key-stdin] [--name N] [--via proxy]
                       add a provider from the catalogue as a profile, test its connection
  test [profile]       one real, minimal request with a profile's env: status, latency, models
  serve [--port N]     run the management API and dashboard headless (default port 3000)
  claude-code status|undo|restore
                       Claude Code's own settings.json: what is applied, one step back, or the
                       original settings as they were before Switchboard first changed them
  shared link          link {config_dir}/shared/{commands,skills,agents} into the agent data dir
  usage <report>       token and cost reports in the terminal: daily, monthly, session, projects,
                       models (--since, --until, --tz, --mode, --json; see 'usage --help')
  bridge <command>     legacy editor bridge (deprecated, beta): auth, status, models, start, stop,
                       enable, disable, help ('switchboard cursor ...' still works)
  login <codex|ghcp|agy> [--device | --no-browser] [--acknowledge]
                       sign in a subscription account (ChatGPT, GitHub Copilot)
  accounts [list|pause|resume|remove|import]
                       the subscription accounts in the proxy's auth files
  cliproxy <command>   the managed CLIProxyAPI binary: status, install, pin, unpin, uninstall
  help [command]       show this help, or a command's

Options: -h, --help (also after any command), --version
`;

type Command = (argv: string[]) => Promise<number>;

/**
 * Subcommands; areas add theirs here (bridge, shared, ...). Each loads its modules when run, so
 * `serve` starts listening without first loading the bridge's.
 */
export const commands: Record<string, Command> = {
  run: async (argv) => (await import('./run.js')).runRun(argv),
  env: async (argv) => (await import('./env.js')).runEnv(argv),
  use: async (argv) => (await import('./use.js')).runUse(argv),
  providers: async (argv) => (await import('./providers.js')).runProviders(argv),
  add: async (argv) => (await import('./add.js')).runAdd(argv),
  test: async (argv) => (await import('./test-connection.js')).runTest(argv),
  serve: async (argv) => (await import('./serve.js')).runServe(argv),
  bridge: async (argv) => (await import('./bridge.js')).runBridge(argv),
  cursor: async (argv) => (await import('./bridge.js')).runCursorAlias(argv),
  shared: async (argv) => (await import('./shared.js')).runShared(argv),
  'claude-code': async (argv) => (await import('./claude-code.js')).runClaudeCode(argv),
  usage: async (argv) => (await import('./usage.js')).runUsage(argv),
  login: async (argv) => (await import('./login.js')).runLogin(argv),
  accounts: async (argv) => (await import('./accounts.js')).runAccounts(argv),
  cliproxy: async (argv) => (await import('./cliproxy.js')).runCliproxy(argv),
  help: async ([name]) => {
    const usage = name ? await usageOf(name) : USAGE;
    if (usage === undefined) throw new CliError(`unknown command '${name}'\n\n${USAGE}`); // escaped where it is printed
    process.stdout.write(usage);
    return 0;
  },
};

/** Each command's help text, loaded only when asked for. */
async function usageOf(name: string): Promise<string | undefined> {
  switch (name) {
    case 'run':
      return (await import('./run.js')).RUN_USAGE;
    case 'env':
      return (await import('./env.js')).ENV_USAGE;
    case 'use':
      return (await import('./use.js')).USE_USAGE;
    case 'serve':
      return (await import('./serve.js')).SERVE_USAGE;
    case 'providers':
      return (await import('./providers.js')).PROVIDERS_USAGE;
    case 'add':
      return (await import('./add.js')).ADD_USAGE;
    case 'test':
      return (await import('./test-connection.js')).TEST_USAGE;
    case 'bridge':
    case 'cursor':
      return (await import('./bridge.js')).BRIDGE_USAGE;
    case 'shared':
      return (await import('./shared.js')).SHARED_USAGE;
    case 'claude-code':
      return (await import('./claude-code.js')).CLAUDE_CODE_USAGE;
    case 'usage':
      return (await import('./usage.js')).USAGE_USAGE;
    case 'login':
      return (await import('./login.js')).LOGIN_USAGE;
    case 'accounts':
      return (await import('./accounts.js')).ACCOUNTS_USAGE;
    case 'cliproxy':
      return (await import('./cliproxy.js')).CLIPROXY_USAGE;
    case 'help':
      return USAGE;
    default:
      return undefined;
  }
}

export async function main(argv: string[]): Promise<number> {
  const [name, ...rest] = argv;
  if (name === '--version' || name === '-V' || (name && commands[name] && hasOwnFlag(rest, '--version'))) {
    process.stdout.write(`switchboard ${appVersion()}\n`);
    return 0;
  }
  if (name === '--help' || name === '-h') return commands.help!([]);
  const command = name ? commands[name] : undefined;
  if (!command) {
    process.stderr.write(name ? terminalText(`switchboard: unknown command '${name}'\n\n${USAGE}`) : USAGE);
    return 2;
  }
  try {
    // `--help`/`-h` among a command's own arguments (never the agent's, after `--`) shows its help.
    if (name !== 'help' && hasOwnFlag(rest, '--help', '-h')) return await commands.help!([name!]);
    return await command(rest);
  } catch (err) {
    if (err instanceof CliError) {
      // A message may quote an argument, a profile's value or a file's text (terminal-text.ts).
      process.stderr.write(terminalText(`switchboard: ${err.message}\n`));
      return 2;
    }
    throw err;
  }
}
