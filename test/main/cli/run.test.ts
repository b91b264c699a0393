import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { CliError } from '../../../main/cli/args.js';
import { runEnv } from '../../../main/cli/env.js';
import { main } from '../../../main/cli/index.js';
import { writeLaunchSettings } from '../../../main/cli/launch-settings-file.js';
import { runRun } from '../../../main/cli/run.js';
import { runUse } from '../../../main/cli/use.js';
import { nodeEntry } from '../../../main/infra/node-entry.js';
import { makeTempDir } from '../../helpers/temp-dir.js';

const STAND_IN_SOURCE = fileURLToPath(new URL('../../fixtures/stand-in-agent.mjs', import.meta.url));

let dir: string;
let cleanup: () => Promise<void>;
let home: string;
let standIn: string;
let env: NodeJS.ProcessEnv;

beforeAll(async () => {
  ({ dir, cleanup } = await makeTempDir('switchboard-cli-run-'));
  home = path.join(dir, 'home');
  await fs.mkdir(home, { recursive: true });
  // A copy with the exec bit set, whatever the checkout did to the fixture's mode.
  standIn = path.join(dir, 'bin', 'stand-in-agent');
  await fs.mkdir(path.dirname(standIn));
  await fs.copyFile(STAND_IN_SOURCE, standIn);
  await fs.chmod(standIn, 0o755);
  env = { PATH: process.env.PATH, HOME: dir, SWITCHBOARD_HOME: home, SWITCHBOARD_AGENT_DIR: path.join(dir, 'agent') };
  await writeProfile('glm', {
    env: { PROVIDER_BASE_URL: 'https://api.z.ai/api/anthropic', PROVIDER_AUTH_TOKEN: 'z-token', PROVIDER_MODEL: 'glm-4.6', ANTHROPIC_DEFAULT_HAIKU_MODEL: 'own-haiku', PROVIDER_DEFAULT_HAIKU_MODEL: 'ignored' },
  });
  await writeProfile('nourl', { env: { PROVIDER_MODEL: 'm', PROVIDER_BASE_URL: '  ' } });
  await writeProfile('broken', '{"env": ');
});
afterAll(() => cleanup());

const children = new Set<ChildProcess>();
afterEach(() => {
  for (const child of children) child.kill('SIGKILL');
  children.clear();
});

function writeProfile(name: string, content: unknown): Promise<void> {
  return fs.writeFile(path.join(home, `${name}.settings.json`), typeof content === 'string' ? content : JSON.stringify(content));
}

interface Cli {
  child: ChildProcess;
  stdout: () => string;
  stderr: () => string;
  waitForOutput(text: string): Promise<void>;
  exit: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/** `switchboard <args>` as a real child process, from sources. */
function cli(args: string[], extraEnv: NodeJS.ProcessEnv = {}): Cli {
  const entry = nodeEntry('main/cli/main');
  const child = spawn(entry.command, [...entry.args, ...args], { env: { ...env, ...entry.env, ...extraEnv }, stdio: ['ignore', 'pipe', 'pipe'] });
  children.add(child);
  let out = '';
  let err = '';
  const waiters = new Set<() => void>();
  child.stdout!.on('data', (c: Buffer) => {
    out += c.toString();
    waiters.forEach((w) => w());
  });
  child.stderr!.on('data', (c: Buffer) => (err += c.toString()));
  const exit = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
  return {
    child,
    stdout: () => out,
    stderr: () => err,
    exit,
    waitForOutput: (text) =>
      new Promise((resolve, reject) => {
        const check = () => {
          if (!out.includes(text)) return;
          waiters.delete(check);
          resolve();
        };
        waiters.add(check);
        void exit.then(() => (out.includes(text) ? resolve() : reject(new Error(`exited before printing ${text}: ${out}${err}`))));
        check();
      }),
  };
}

const firstJson = (text: string) => JSON.parse(text.split('\n')[0]!);

describe('switchboard run (end to end, stand-in agent)', { timeout: 60_000 }, () => {
  it('starts the agent with the mapped env on top of the caller env, passes the arguments, returns its exit code', async () => {
    const run = cli(['run', 'glm', '--agent', standIn, '--', '--exit', '7', 'two words', '$HOME', '--help'], { CALLER_KEEP: 'kept', ANTHROPIC_BASE_URL: 'from-caller' });
    expect(await run.exit).toEqual({ code: 7, signal: null });
    const seen = firstJson(run.stdout());
    expect(seen.argv).toEqual(['--exit', '7', 'two words', '$HOME', '--help']);
    expect(seen.env).toEqual({
      CALLER_KEEP: 'kept',
      PROVIDER_BASE_URL: 'https://api.z.ai/api/anthropic',
      PROVIDER_AUTH_TOKEN: 'z-token',
      PROVIDER_MODEL: 'glm-4.6',
      PROVIDER_DEFAULT_HAIKU_MODEL: 'ignored',
      ANTHROPIC_BASE_URL: 'https://api.z.ai/api/anthropic',
      ANTHROPIC_AUTH_TOKEN: 'z-token',
      ANTHROPIC_MODEL: 'glm-4.6',
      ANTHROPIC_DEFAULT_HAIKU_MODEL: 'own-haiku',
    });
    expect(run.stderr()).toBe('');
  });

  it('forwards SIGINT to the agent and returns the code the agent exits with', async () => {
    const run = cli(['run', 'glm', '--agent', standIn, '--', '--wait-signal']);
    await run.waitForOutput('ready\n');
    run.child.kill('SIGINT');
    expect(await run.exit).toEqual({ code: 41, signal: null });
    expect(run.stdout()).toContain('got SIGINT');
  });

  it('forwards SIGTERM and SIGHUP too', async () => {
    for (const [signal, code] of [['SIGTERM', 42], ['SIGHUP', 43]] as const) {
      const run = cli(['run', 'glm', '--agent', standIn, '--', '--wait-signal']);
      await run.waitForOutput('ready\n');
      run.child.kill(signal);
      expect(await run.exit).toEqual({ code, signal: null });
      expect(run.stdout()).toContain(`got ${signal}`);
    }
  });

  it('returns 128 + the signal number when a signal ends the agent', async () => {
    const run = cli(['run', 'glm', '--agent', standIn, '--', '--die-on-signal']);
    await run.waitForOutput('ready\n');
    run.child.kill('SIGINT');
    expect(await run.exit).toEqual({ code: 130, signal: null });
  });

  it('uses the default profile and agent.binary from config.yaml when neither is given', async () => {
    await fs.writeFile(path.join(home, 'config.yaml'), `default: glm\nagent:\n  binary: ${standIn}\n`);
    try {
      const run = cli(['run', '--', '--exit', '0']);
      expect(await run.exit).toEqual({ code: 0, signal: null });
      expect(firstJson(run.stdout()).env.ANTHROPIC_MODEL).toBe('glm-4.6');
    } finally {
      await fs.rm(path.join(home, 'config.yaml'));
    }
  });

  it('an unknown profile is one clear line on stderr and exit 2; the agent never starts', async () => {
    const run = cli(['run', 'nope', '--agent', standIn]);
    expect(await run.exit).toEqual({ code: 2, signal: null });
    expect(run.stdout()).toBe('');
    expect(run.stderr()).toBe("switchboard: unknown profile 'nope'; profiles: broken, glm, nourl\n");
  });
});

describe('switchboard run gives Claude Code the profile as --settings (issue 28.1)', { timeout: 60_000 }, () => {
  let claude: string;
  let configDir: string;
  const fakes: http.Server[] = [];
  const hits: Record<string, number> = { A: 0, B: 0 };

  /** A fake Anthropic upstream on a free loopback port that counts what it receives. */
  async function fake(name: 'A' | 'B'): Promise<string> {
    const server = http.createServer((req, res) => {
      hits[name]! += 1;
      req.resume();
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ type: 'message', from: name }));
    });
    fakes.push(server);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  }

  beforeAll(async () => {
    // The stand-in under Claude Code's command name, reading settings the way Claude Code does.
    claude = path.join(dir, 'bin', 'claude');
    await fs.copyFile(STAND_IN_SOURCE, claude);
    await fs.chmod(claude, 0o755);
    configDir = path.join(dir, 'claude-config');
    await fs.mkdir(configDir, { recursive: true });
    const [a, b] = [await fake('A'), await fake('B')];
    // What "Use for Claude Code" writes: upstream A in the user's settings.json env.
    await fs.writeFile(path.join(configDir, 'settings.json'), JSON.stringify({ env: { ANTHROPIC_BASE_URL: a, ANTHROPIC_AUTH_TOKEN: 'a-token', ANTHROPIC_MODEL: 'model-a' }, model: 'opus' }));
    await writeProfile('upstream-b', { env: { PROVIDER_BASE_URL: b, PROVIDER_AUTH_TOKEN: 'b-token', PROVIDER_MODEL: 'model-b' } });
  });
  afterAll(async () => {
    await Promise.all(fakes.map((server) => new Promise((resolve) => server.close(resolve))));
  });

  it('the profile run wins over the applied one in settings.json; the 0600 file is gone after the run', async () => {
    const run = cli(['run', 'upstream-b', '--agent', claude, '--', '--exit', '5'], { CLAUDE_CONFIG_DIR: configDir });
    expect(await run.exit).toEqual({ code: 5, signal: null });
    const seen = firstJson(run.stdout());
    expect(seen.argv.slice(0, 1)).toEqual(['--settings']);
    expect(seen.argv.slice(2)).toEqual(['--exit', '5']);
    expect(seen.settingsFile.mode).toBe('600');
    expect(seen.effective).toMatchObject({ ANTHROPIC_AUTH_TOKEN: 'b-token', ANTHROPIC_MODEL: 'model-b' });
    expect(seen.effective.ANTHROPIC_BASE_URL).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(seen.effective.ANTHROPIC_BASE_URL).toBe(seen.env.ANTHROPIC_BASE_URL); // the environment says the same, for other agents
    await expect(fs.stat(seen.settingsFile.path)).rejects.toMatchObject({ code: 'ENOENT' });
    await expect(fs.stat(path.dirname(seen.settingsFile.path))).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it('the request goes to the profile\'s upstream (B), not the applied one (A)', async () => {
    hits.A = 0;
    hits.B = 0;
    const run = cli(['run', 'upstream-b', '--agent', claude, '--', '--request'], { CLAUDE_CONFIG_DIR: configDir });
    expect(await run.exit).toEqual({ code: 0, signal: null });
    expect(hits).toEqual({ A: 0, B: 1 });
  });

  it('another agent gets the environment only: no --settings in its arguments', async () => {
    const run = cli(['run', 'upstream-b', '--agent', standIn, '--', '--exit', '0'], { CLAUDE_CONFIG_DIR: configDir });
    expect(await run.exit).toEqual({ code: 0, signal: null });
    const seen = firstJson(run.stdout());
    expect(seen.argv).toEqual(['--exit', '0']);
    expect(seen.env).toMatchObject({ ANTHROPIC_AUTH_TOKEN: 'b-token', ANTHROPIC_MODEL: 'model-b' });
  });

  it('a folder left by a killed run is swept by the next one; a live run\'s is kept', async () => {
    const { dir: tmp, cleanup: done } = await makeTempDir('switchboard-run-sweep-');
    try {
      const dead = path.join(tmp, 'switchboard-run-999999999-abc');
      const live = path.join(tmp, `switchboard-run-${process.pid}-abc`);
      for (const folder of [dead, live]) await fs.mkdir(folder);
      const written = await writeLaunchSettings('{"env":{}}\n', tmp);
      expect((await fs.stat(written.file)).mode & 0o777).toBe(0o600);
      expect((await fs.stat(path.dirname(written.file))).mode & 0o777).toBe(0o700);
      await written.remove();
      expect((await fs.readdir(tmp)).sort()).toEqual([path.basename(live)]);
    } finally {
      await done();
    }
  });
});

describe('switchboard run refuses an env the agent cannot be given, as `env` does (issue 27.12)', { timeout: 60_000 }, () => {
  beforeAll(async () => {
    await writeProfile('nul', { env: { PROVIDER_BASE_URL: 'https://x.example', PROVIDER_MODEL: 'a\u0000b' } });
    await writeProfile('eqkey', { env: { PROVIDER_BASE_URL: 'https://x.example', 'FOO=BAR': 'v' } });
  });

  it.each([
    ['nul', /^switchboard: profile 'nul': env key "PROVIDER_MODEL" cannot be passed to the agent: its value holds a NUL\n$/],
    ['eqkey', /^switchboard: profile 'eqkey': env key "FOO=BAR" cannot be passed to the agent: not a variable name\n$/],
  ])('%s: one line on stderr, exit 2, no stack, the agent never starts', async (profile, message) => {
    const run = cli(['run', profile, '--agent', standIn]);
    expect(await run.exit).toEqual({ code: 2, signal: null });
    expect(run.stderr()).toMatch(message);
    expect(run.stdout()).toBe('');
  });

  it('env leaves the same keys out with a warning (one rule for both)', async () => {
    for (const profile of ['nul', 'eqkey']) {
      const err: string[] = [];
      expect(await runEnv([profile, '--shell', 'bash'], env, { out: () => undefined, err: (t) => void err.push(t) })).toBe(0);
      expect(err.join('')).toMatch(/left out env key "(PROVIDER_MODEL|FOO=BAR)"/);
    }
  });
});

describe('switchboard run: the rows that end in exit 2 (in process)', () => {
  const io = { out: () => undefined, err: () => undefined };
  const rows: Array<[string, string[], NodeJS.ProcessEnv, RegExp]> = [
    ['missing binary on PATH', ['glm', '--agent', 'no-such-agent-xyz'], {}, /^agent 'no-such-agent-xyz' not found on PATH \(set agent\.binary in config\.yaml or pass --agent\)$/],
    ['missing binary by path', ['glm', '--agent', '/nonexistent/claude'], {}, /^agent '\/nonexistent\/claude' not found \(/],
    ['default claude missing', ['glm'], { PATH: '/nonexistent' }, /^agent 'claude' not found on PATH/],
    ['profile without base URL', ['nourl', '--agent', 'x'], {}, /^profile 'nourl' has no base URL: set PROVIDER_BASE_URL in .*nourl\.settings\.json$/],
    ['no profile and no default', [], {}, /^no profile named and no default profile set/],
    ['invalid profile name', ['../etc'], {}, /^invalid profile name '\.\.\/etc'$/],
    ['profile file not JSON', ['broken'], {}, /^profile 'broken' is not valid JSON: /],
    ['unknown option', ['glm', '--model', 'x'], {}, /^unknown option '--model' for 'run' \(put agent arguments after --\)$/],
    ['second positional', ['glm', 'extra'], {}, /^unexpected argument 'extra' for 'run'/],
    ['--agent without value', ['glm', '--agent'], {}, /^--agent needs a value$/],
  ];
  it.each(rows)('%s', async (_name, args, extra, message) => {
    const error = await runRun(args, { ...env, ...extra }, io).then(() => null, (e: unknown) => e);
    expect(error).toBeInstanceOf(CliError);
    expect((error as Error).message).toMatch(message);
  });
});

describe('switchboard env and use (in process)', { timeout: 60_000 }, () => {
  function capture() {
    const out: string[] = [];
    const err: string[] = [];
    return { io: { out: (t: string) => void out.push(t), err: (t: string) => void err.push(t) }, out: () => out.join(''), err: () => err.join('') };
  }

  it('env prints the mapped profile env for bash, fish and PowerShell', async () => {
    const bash = capture();
    expect(await runEnv(['glm', '--shell', 'bash'], env, bash.io)).toBe(0);
    expect(bash.out()).toContain(`# Switchboard profile glm; load with: eval "$(switchboard env glm)"\n`);
    expect(bash.out()).toContain("export ANTHROPIC_BASE_URL='https://api.z.ai/api/anthropic'\n");
    expect(bash.out()).toContain("export ANTHROPIC_DEFAULT_HAIKU_MODEL='own-haiku'\n");
    const fish = capture();
    await runEnv(['glm', '--shell=fish'], env, fish.io);
    expect(fish.out()).toContain("set -gx ANTHROPIC_MODEL 'glm-4.6'\n");
    const ps = capture();
    await runEnv(['glm', '--shell', 'powershell'], env, ps.io);
    expect(ps.out()).toContain("$env:ANTHROPIC_AUTH_TOKEN = 'z-token'\n");
  });

  it('env reports keys it leaves out on stderr, and refuses an unknown shell', async () => {
    await writeProfile('odd', { env: { 'NOT A NAME': 'x', GOOD: 'y' } });
    const c = capture();
    expect(await runEnv(['odd', '--shell', 'zsh'], env, c.io)).toBe(0);
    expect(c.out()).toContain("export GOOD='y'\n");
    expect(c.err()).toContain('left out env key "NOT A NAME"');
    await expect(runEnv(['odd', '--shell', 'tcsh'], env, c.io)).rejects.toThrow("unknown shell 'tcsh' (one of: bash, zsh, fish, powershell)");
  });

  it('use sets the default (config.yaml), use without a name lists the profiles with *', async () => {
    const set = capture();
    expect(await runUse(['glm'], env, set.io)).toBe(0);
    expect(set.out()).toBe('Default profile: glm (api.z.ai, glm-4.6)\n');
    expect(await fs.readFile(path.join(home, 'config.yaml'), 'utf8')).toContain('default: glm');
    const listed = capture();
    await runUse([], env, listed.io);
    expect(listed.out()).toContain('* glm   ');
    expect(listed.out()).toContain('  nourl ');
    await expect(runUse(['ghost'], env, set.io)).rejects.toThrow("unknown profile 'ghost'");
    const run = cli(['env', '--shell', 'bash']);
    expect(await run.exit).toEqual({ code: 0, signal: null });
    expect(run.stdout()).toContain("export PROVIDER_MODEL='glm-4.6'");
    await fs.rm(path.join(home, 'config.yaml'));
  });
});

describe('--help, -h and --version', () => {
  async function mainOutput(args: string[]): Promise<{ code: number; out: string }> {
    let out = '';
    const spy = vi.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => {
      out += String(chunk);
      return true;
    });
    try {
      return { code: await main(args), out };
    } finally {
      spy.mockRestore();
    }
  }

  it('answer for the command and each subcommand instead of "unknown command"', async () => {
    const cases: Array<[string[], RegExp]> = [
      [['-h'], /^Usage: switchboard <command>/],
      [['--version'], /^switchboard \d+\.\d+\.\d+/],
      [['run', '--help'], /^Usage: switchboard run \[profile\]/],
      [['run', 'glm', '-h', '--', 'x'], /^Usage: switchboard run \[profile\]/],
      [['env', '-h'], /^Usage: switchboard env \[profile\]/],
      [['use', '--version'], /^switchboard \d+\.\d+\.\d+/],
      [['serve', '--help'], /^Usage: switchboard serve/],
      [['shared', '-h'], /^Usage: switchboard shared/],
      [['bridge', '--version'], /^switchboard \d+\.\d+\.\d+/],
      [['help', 'use'], /^Usage: switchboard use/],
    ];
    for (const [args, expected] of cases) {
      const { code, out } = await mainOutput(args);
      expect(code, args.join(' ')).toBe(0);
      expect(out, args.join(' ')).toMatch(expected);
    }
  });

  it('work from the real command line too', async () => {
    const run = cli(['--help']);
    expect(await run.exit).toEqual({ code: 0, signal: null });
    expect(run.stdout()).toMatch(/^Usage: switchboard <command>/);
    expect(run.stdout()).toContain('run [profile] [--agent BIN] [-- args]');
  });
});
