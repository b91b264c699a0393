import { spawn } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import { findExecutable } from '../infra/find-executable.js';
import { isClaudeCode, launchSettings } from '../services/profiles/claude-code-launch.js';
import { agentEnv, BASE_URL_KEYS, envEntryProblem, launchEnv } from '../services/profiles/launch-env.js';
import { CliError } from './args.js';
import { processIo, type CliIo } from './io.js';
import { terminalText } from '../infra/terminal-text.js';
import { writeLaunchSettings } from './launch-settings-file.js';
import { parseProfileArgs } from './profile-args.js';
import { ProfileSource } from './profile-source.js';
import { ensureProxyForRun } from './run-proxy.js';

export const RUN_USAGE = `Usage: switchboard run [profile] [--agent BIN] [-- agent arguments...]

Starts the coding agent with the profile's env on top of yours: every PROVIDER_<X> key is also
set as ANTHROPIC_<X> (an ANTHROPIC_<X> written in the profile wins). Without a profile name the
default profile is used (set it with \`switchboard use <profile>\`).

Claude Code (an agent named claude) also gets the profile's env as \`--settings <file>\` (a 0600
file removed when it exits), because Claude Code prefers the env of ~/.claude/settings.json, which
"Use for Claude Code" writes, to its process environment.

Options:
  --agent BIN    the agent to start (default: agent.binary in config.yaml, else claude)
  -h, --help     show this help
  --version      print Switchboard's version

A profile routed through the local proxy (base URL = proxy/config.yaml's server address) starts
the proxy first when it is stopped: through the running app when there is one, else directly; it
keeps running after the agent exits.

Stdio is the agent's; SIGINT, SIGTERM and SIGHUP are passed on to it. The exit code is the
agent's (128 + signal number when a signal ended it); 2 when the profile or the agent cannot be
used (unknown profile, no base URL, an env key that is not a variable name or a value with a
NUL, agent not found).

Examples:
  switchboard run glm
  switchboard run -- -p "explain this repo"
  switchboard run work --agent /opt/claude/bin/claude -- --resume
`;

const FORWARDED: NodeJS.Signals[] = ['SIGINT', 'SIGTERM', 'SIGHUP'];

/** `switchboard run`: the agent's exit code, or 2 (thrown as CliError) when it cannot be started. */
export async function runRun(argv: string[], env: NodeJS.ProcessEnv = process.env, io: CliIo = processIo): Promise<number> {
  const args = parseProfileArgs(argv, 'run', ['--agent']);
  const source = new ProfileSource(env);
  const profile = await source.resolve(args.profile);
  const vars = launchEnv(profile.data.env);
  refuseUnsettable(vars, profile.name);
  if (!BASE_URL_KEYS.some((key) => (vars[key] ?? '').trim() !== '')) {
    throw new CliError(`profile '${profile.name}' has no base URL: set PROVIDER_BASE_URL in ${source.paths.settings(profile.name)}`);
  }
  const binary = args.options['--agent'] ?? (await source.configured(async () => (await source.ctx.appConfig.read()).config.agent.binary));
  const executable = await findExecutable(binary, env);
  if (!executable) throw new CliError(`agent '${binary}' not found${binary.includes('/') ? '' : ' on PATH'} (set agent.binary in config.yaml or pass --agent)`);
  const baseUrl = [...BASE_URL_KEYS].reverse().map((key) => (vars[key] ?? '').trim()).find((v) => v !== '') ?? null; // ANTHROPIC_ wins
  const proxy = await ensureProxyForRun(baseUrl, source.paths, env);
  if (proxy.kind === 'failed') io.err(terminalText(`switchboard: the local proxy could not be started (${proxy.message}); starting the agent anyway\n`));
  const childEnv = agentEnv(profile.data.env, env);
  if (!isClaudeCode(executable, await fs.realpath(executable).catch(() => executable))) return runAgent(executable, args.rest, childEnv, io);
  const settings = await writeLaunchSettings(launchSettings(vars));
  try {
    return await runAgent(executable, ['--settings', settings.file, ...args.rest], childEnv, io);
  } finally {
    await settings.remove();
  }
}

/**
 * The rule `switchboard env` applies (issue 27.12), as a refusal: a key like `FOO=BAR` would set
 * another variable in the agent, and a NUL made spawn throw with a stack trace.
 */
function refuseUnsettable(vars: Record<string, string>, profile: string): void {
  for (const [key, value] of Object.entries(vars)) {
    const problem = envEntryProblem(key, value);
    if (problem) throw new CliError(`profile '${profile}': env key ${JSON.stringify(key)} cannot be passed to the agent: ${problem}`);
  }
}

/** Starts the agent with inherited stdio and waits for it, passing our signals on. */
export function runAgent(executable: string, args: string[], env: NodeJS.ProcessEnv, io: CliIo): Promise<number> {
  return new Promise((resolve) => {
    const child = spawn(executable, args, { stdio: 'inherit', env });
    // A terminal's Ctrl-C reaches the whole foreground group, the agent included; forwarding it
    // too matters when only we were signalled (kill, a supervisor). A TUI in raw mode reads Ctrl-C
    // as a key, not a signal, so it never sees two.
    const forward = (signal: NodeJS.Signals) => {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
    };
    for (const signal of FORWARDED) process.on(signal, forward);
    const done = (code: number) => {
      for (const signal of FORWARDED) process.off(signal, forward);
      resolve(code);
    };
    child.once('error', (err) => {
      io.err(terminalText(`switchboard: cannot start agent '${executable}': ${err.message}\n`));
      done(2);
    });
    child.once('exit', (code, signal) => done(code ?? 128 + (signal ? (os.constants.signals[signal] ?? 0) : 0)));
  });
}
