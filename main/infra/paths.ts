import os from 'node:os';
import path from 'node:path';

/** Where Switchboard keeps its files and where the agent keeps its logs (decisions §0). */
export interface Homes {
  configDir: string;
  agentDir: string;
}

export function resolveHomes(env: NodeJS.ProcessEnv = process.env): Homes {
  const home = os.homedir();
  return {
    configDir: path.resolve(env.SWITCHBOARD_HOME || path.join(home, '.switchboard')),
    agentDir: path.resolve(env.SWITCHBOARD_AGENT_DIR || env.CLAUDE_CONFIG_DIR || path.join(home, '.claude')),
  };
}

export type Paths = ReturnType<typeof createPaths>;

/** Every file under {config_dir}, in one place, so no module builds these paths by hand. */
export function createPaths(homes: Homes) {
  const c = (...parts: string[]) => path.join(homes.configDir, ...parts);
  return {
    configDir: homes.configDir,
    agentDir: homes.agentDir,
    appConfig: c('config.yaml'),
    settings: (profile: string) => c(`${profile}.settings.json`),
    backupsDir: c('backups'),
    /** Backups of config.yaml (PUT /api/config). */
    backupsConfigDir: c('backups', 'config'),
    /** Backups of the agent tool's settings file. */
    backupsAgentToolDir: c('backups', 'agent-tool'),
    /** Auth files of removed accounts (decisions §4.1: never silently lost). */
    backupsAuthDir: c('backups', 'auth'),
    proxyDir: c('proxy'),
    proxyConfig: c('proxy', 'config.yaml'),
    proxyAuthDir: c('proxy', 'auth'),
    proxyLogsDir: c('proxy', 'logs'),
    proxyState: c('proxy', 'proxy.json'),
    /** stdout/stderr of the running proxy process (truncated at each start). */
    proxyOutput: c('proxy', 'engine-output.log'),
    /** proxy/config.yaml translated to CLIProxyAPI's own keys, for an external binary. */
    proxyBinaryConfig: c('proxy', 'cliproxy-config.yaml'),
    bridgeDir: c('cursor'),
    bridgeCredentials: c('cursor', 'credentials.json'),
    /** The bare daemon pid and a newline, as every pid file holds (decisions §0). */
    bridgePid: c('cursor', 'daemon.pid'),
    /** The supervisor's record of the daemon (pid, port, argv), beside daemon.pid. */
    bridgeRecord: c('cursor', 'daemon.json'),
    bridgeToken: c('cursor', 'daemon-token'),
    bridgeLog: c('cursor', 'daemon.log'),
    bridgeSettings: c('cursor.settings.json'),
    /** What "Use for Claude Code" last wrote into the agent's settings.json, and the file before it. */
    claudeCodeRecord: c('claude-code', 'applied.json'),
    /** One file per step Undo can walk back (the file before the step and the record then). */
    claudeCodeHistoryDir: c('claude-code', 'history'),
    sharedDir: c('shared'),
    instancesDir: c('instances'),
    cacheDir: c('.cache'),
    usageCache: c('.cache', 'usage-cache.json'),
    /** Answers saved with the usage cache, served while the next start loads (api/warm-answers.ts). */
    usageAnswers: c('.cache', 'usage-answers.json'),
    /** The terminal's last usage answers, reused while their data is unchanged (cli/usage-memo.ts). */
    usageCliAnswers: c('.cache', 'usage-cli-answers.json'),
    updateCheckCache: c('.cache', 'update-check.json'),
  };
}

/** Paths the app reads but never writes into (user content and link farms). */
const NOT_WRITTEN = new Set<keyof Paths>(['agentDir', 'sharedDir', 'instancesDir']);

/**
 * Every directory under {config_dir} the app writes files into, derived from the paths above (a
 * `...Dir` entry is itself a directory, any other entry lives in its parent), so a directory added
 * there is swept for temp files (issue 17) without anyone remembering to list it.
 */
export function writtenDirs(paths: Paths): string[] {
  const dirs = new Set<string>([paths.configDir]);
  for (const [key, value] of Object.entries(paths) as Array<[keyof Paths, unknown]>) {
    if (typeof value !== 'string' || NOT_WRITTEN.has(key)) continue;
    dirs.add(key.endsWith('Dir') ? value : path.dirname(value));
  }
  return [...dirs];
}
