import { bridgeErrorAnswer } from '../api/bridge-errors.js';
import { E } from '../api/error-texts.js';
import { systemClock } from '../infra/clock.js';
import { createLogger, type LogLevel } from '../infra/logger.js';
import { createPaths, resolveHomes } from '../infra/paths.js';
import { ConfigFileError, AppConfigStore } from '../services/app-config/store.js';
import { BridgeService, type BridgeServiceOptions } from '../services/bridge/bridge-service.js';
import { BridgeError } from '../services/bridge/errors.js';
import { AppEvents } from '../services/events.js';
import { CliError } from './args.js';
import { formatModels, formatStatus } from './bridge-format.js';
import { processIo, terminalIo, type CliIo } from './io.js';

export const BRIDGE_USAGE = `Usage: switchboard bridge <command>   (deprecated, beta)

Commands:
  auth                 import the token and machine id from the editor (macOS/Linux, needs sqlite3)
  auth --manual --token <ACCESS_TOKEN> --machine-id <MACHINE_ID>
                       import them by hand (any OS)
  status               credentials, daemon and settings
  models               models the daemon serves (5-minute cache)
  start                start the daemon on 127.0.0.1:<cursor.port>
  stop                 stop the daemon
  enable               turn the bridge on in config.yaml (cursor.enabled)
  disable              turn it off (and stop the daemon if it runs)
  help                 show this help

Exit codes: 0 ok, 1 failure, 2 usage error.
`;

/** The same BridgeService the API uses, on the files of `{config_dir}`; no API server needed. */
export function cliBridgeService(env: NodeJS.ProcessEnv, options: BridgeServiceOptions = {}): BridgeService {
  const paths = createPaths(resolveHomes(env));
  const logger = createLogger((env.SWITCHBOARD_LOG_LEVEL as LogLevel | undefined) ?? 'warn');
  const ctx = { paths, clock: systemClock, logger, events: new AppEvents(), appConfig: new AppConfigStore(paths.appConfig), env };
  return new BridgeService(ctx, options);
}

/** `switchboard bridge ...`: 0 ok, 1 the action failed, 2 usage error (thrown as CliError). */
export async function runBridge(argv: string[], env: NodeJS.ProcessEnv = process.env, io: CliIo = processIo, options: BridgeServiceOptions = {}): Promise<number> {
  io = terminalIo(io); // model lists and error texts come from the upstream (terminal-text.ts)
  const [sub, ...rest] = argv;
  if (sub === 'help' || sub === '--help' || sub === '-h') {
    io.out(BRIDGE_USAGE);
    return 0;
  }
  const action = sub ? actions[sub] : undefined;
  if (!action) throw new CliError(sub ? `unknown bridge command '${sub}'\n\n${BRIDGE_USAGE}` : `missing bridge command\n\n${BRIDGE_USAGE}`);
  if (sub !== 'auth' && rest.length > 0) throw new CliError(`unexpected argument '${rest[0]}' for 'bridge ${sub}'`);
  const bridge = cliBridgeService(env, options);
  try {
    return await action(bridge, rest, io, env);
  } catch (err) {
    if (err instanceof BridgeError) {
      const answer = bridgeErrorAnswer(err);
      io.err(`switchboard: ${answer.error}${answer.message ? `: ${answer.message}` : ''}\n`);
      return 1;
    }
    if (err instanceof ConfigFileError) {
      io.err(`switchboard: ${E.invalidConfigFile}: ${err.message}\n`);
      return 1;
    }
    throw err;
  } finally {
    // The daemon outlives this command; only our handles on it go.
    await bridge.release();
  }
}

/** `switchboard cursor ...`: the old name, forwarded during the migration window. */
export async function runCursorAlias(argv: string[], env: NodeJS.ProcessEnv = process.env, io: CliIo = processIo): Promise<number> {
  io.err("switchboard: 'switchboard cursor' is deprecated; use 'switchboard bridge' instead\n");
  return runBridge(argv, env, io);
}

type Action = (bridge: BridgeService, args: string[], io: CliIo, env: NodeJS.ProcessEnv) => Promise<number>;

const actions: Record<string, Action> = {
  auth: async (bridge, args, io) => {
    const flags = parseAuthFlags(args);
    const creds = flags ? await bridge.importManual(flags.token, flags.machineId) : await bridge.autoDetect();
    const status = await bridge.status();
    const expires = status.expiresAt !== null ? new Date(status.expiresAt).toISOString() : 'unknown';
    io.out(`Credentials imported (${creds.authMethod}); machine id ${creds.machineId}; expires ${expires}\n`);
    if (!status.enabled) io.out('The bridge is disabled; run `switchboard bridge enable` to use it.\n');
    return 0;
  },
  status: async (bridge, _args, io, env) => {
    io.out(formatStatus(await bridge.status(), createPaths(resolveHomes(env)).bridgeToken));
    return 0;
  },
  models: async (bridge, _args, io) => {
    const running = (await bridge.status()).daemonRunning;
    io.out(formatModels(await bridge.models(), running));
    return 0;
  },
  start: async (bridge, _args, io, env) => {
    const { pid, port, alreadyRunning } = await bridge.startDaemon();
    io.out(`Bridge daemon ${alreadyRunning ? 'already running' : 'started'} on http://127.0.0.1:${port} (pid ${pid})\n`);
    io.out(`Clients authenticate with the token in ${createPaths(resolveHomes(env)).bridgeToken}\n`);
    return 0;
  },
  stop: async (bridge, _args, io) => {
    const { stopped, pid } = await bridge.stopDaemon();
    io.out(stopped ? `Bridge daemon stopped (pid ${pid})\n` : 'Bridge daemon is not running\n');
    return 0;
  },
  enable: async (bridge, _args, io) => {
    await bridge.updateSettings({ enabled: true });
    io.out('Bridge enabled (cursor.enabled: true)\n');
    return 0;
  },
  disable: async (bridge, _args, io) => {
    await bridge.updateSettings({ enabled: false });
    const { stopped, pid } = await bridge.stopDaemon();
    io.out(`Bridge disabled (cursor.enabled: false)${stopped ? `; daemon stopped (pid ${pid})` : ''}\n`);
    return 0;
  },
};

/** null = auto-detect; `--manual` (or either value flag) needs both values. */
function parseAuthFlags(args: string[]): { token: string; machineId: string } | null {
  const values: Record<string, string | undefined> = {};
  let manual = false;
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    const eq = arg.indexOf('=');
    const name = eq > 0 ? arg.slice(0, eq) : arg;
    if (name === '--manual' && eq < 0) manual = true;
    else if (name === '--token' || name === '--machine-id') {
      const value = eq > 0 ? arg.slice(eq + 1) : args[++i];
      if (value === undefined || value.startsWith('--')) throw new CliError(`${name} needs a value`);
      values[name] = value;
    } else throw new CliError(`unexpected argument '${arg}' for 'bridge auth'\n\n${BRIDGE_USAGE}`);
  }
  if (!manual && values['--token'] === undefined && values['--machine-id'] === undefined) return null;
  const token = values['--token'];
  const machineId = values['--machine-id'];
  if (token === undefined || machineId === undefined) throw new CliError('bridge auth --manual needs --token <ACCESS_TOKEN> and --machine-id <MACHINE_ID>');
  return { token, machineId };
}
