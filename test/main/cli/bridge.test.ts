import { execFile } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { CliError } from '../../../main/cli/args.js';
import { runBridge, runCursorAlias } from '../../../main/cli/bridge.js';
import { main } from '../../../main/cli/index.js';
import { appRoot } from '../../../main/infra/app-root.js';
import { nodeEntry } from '../../../main/infra/node-entry.js';
import { findFreePort } from '../../../main/infra/port-probe.js';
import { isProcessAlive } from '../../../main/infra/process-alive.js';
import type { BridgeServiceOptions } from '../../../main/services/bridge/bridge-service.js';
import { makeEditorDb, MACHINE_ID_HEX, MACHINE_ID_UUID, PLAIN_TOKEN, requireSqlite3 } from '../../fixtures/bridge/editor-db.js';
import { startFakeUpstream, UPSTREAM_MODELS, type FakeUpstream } from '../../fixtures/bridge/fake-upstream.js';
import { HOSTILE, RAW_CONTROL } from '../../fixtures/terminal/hostile-strings.js';

let upstream: FakeUpstream;
beforeAll(async () => {
  requireSqlite3();
  upstream = await startFakeUpstream();
});
afterAll(() => upstream.close());

interface Home {
  root: string;
  env: NodeJS.ProcessEnv;
  port: number;
}

const homes: Home[] = [];
afterEach(async () => {
  for (const h of homes.splice(0)) {
    // Whatever a test left running is stopped before its home goes.
    await runBridge(['stop'], h.env, quiet()).catch(() => undefined);
    await fs.rm(h.root, { recursive: true, force: true });
  }
});

async function home(cursor = ''): Promise<Home> {
  const root = await fs.mkdtemp(path.join(os.tmpdir(), 'sb-cli-bridge-'));
  const port = await findFreePort();
  await fs.mkdir(path.join(root, 'home'), { recursive: true, mode: 0o700 });
  await fs.writeFile(path.join(root, 'home', 'config.yaml'), `# mine\ncursor:\n  port: ${port}\n  upstream_url: ${upstream.url}\n${cursor}`);
  // Log level error: a daemon stopped by another service instance is reported as a warning by the
  // first one; real CLI processes exit before that can happen.
  const h = { root, port, env: { HOME: path.join(root, 'user'), SWITCHBOARD_HOME: path.join(root, 'home'), SWITCHBOARD_LOG_LEVEL: 'error' } };
  homes.push(h);
  return h;
}

/** A fast stand-in for the daemon where the test is about the CLI, not the daemon. */
const stubDaemon: BridgeServiceOptions = {
  launch: (settings) => ({
    command: process.execPath,
    args: [path.join(appRoot(), 'test/fixtures/bridge/stub-daemon.mjs'), '--config-dir', 'x', '--port', String(settings.port)],
  }),
};

function quiet() {
  return { out: () => undefined, err: () => undefined };
}

/** Runs `switchboard bridge ...` in-process and captures its output. */
async function bridge(h: Home, argv: string[], env: NodeJS.ProcessEnv = {}, options: BridgeServiceOptions = {}) {
  let out = '';
  let err = '';
  const code = await runBridge(argv, { ...h.env, ...env }, { out: (t) => (out += t), err: (t) => (err += t) }, { readyPollMs: 100, ...options });
  return { code, out, err };
}

async function usage(p: Promise<unknown>): Promise<string> {
  const e = await p.then(() => null, (x: unknown) => x);
  expect(e).toBeInstanceOf(CliError);
  return (e as CliError).message;
}

describe('switchboard bridge (in-process, same service as the API)', () => {
  it('help prints the usage and exits 0; a missing or unknown command is a usage error', async () => {
    const h = await home();
    const help = await bridge(h, ['help']);
    expect(help.code).toBe(0);
    expect(help.out).toContain('auth --manual --token <ACCESS_TOKEN> --machine-id <MACHINE_ID>');
    for (const sub of ['status', 'models', 'start', 'stop', 'enable', 'disable']) expect(help.out).toContain(`  ${sub}`);
    expect(await usage(bridge(h, []))).toContain('missing bridge command');
    expect(await usage(bridge(h, ['frobnicate']))).toContain("unknown bridge command 'frobnicate'");
    expect(await usage(bridge(h, ['status', 'extra']))).toContain("unexpected argument 'extra'");
  });

  it('auth --manual imports; 50 characters fail with exit 1; incomplete flags are usage errors', async () => {
    const h = await home();
    const bad = await bridge(h, ['auth', '--manual', '--token', 'x'.repeat(50), '--machine-id', MACHINE_ID_HEX]);
    expect(bad.code).toBe(1);
    expect(bad.err).toMatch(/^switchboard: Invalid token or machine ID format: /);
    expect(await usage(bridge(h, ['auth', '--manual', '--token', PLAIN_TOKEN]))).toContain('needs --token');
    expect(await usage(bridge(h, ['auth', '--manual', '--token']))).toContain('--token needs a value');
    expect(await usage(bridge(h, ['auth', '--bogus']))).toContain("unexpected argument '--bogus'");
    const ok = await bridge(h, ['auth', '--manual', '--token', PLAIN_TOKEN, `--machine-id=${MACHINE_ID_UUID}`]);
    expect(ok.code).toBe(0);
    expect(ok.out).toContain(`Credentials imported (manual); machine id ${MACHINE_ID_HEX}`);
    expect(ok.out).toContain('bridge is disabled');
    const stored = JSON.parse(await fs.readFile(path.join(h.env.SWITCHBOARD_HOME!, 'cursor', 'credentials.json'), 'utf8'));
    expect(stored).toMatchObject({ accessToken: PLAIN_TOKEN, machineId: MACHINE_ID_HEX, authMethod: 'manual' });
  });

  it('auth auto-detects from the editor database, and reports its failures with exit 1', async () => {
    const h = await home();
    const db = makeEditorDb(path.join(h.root, 'editor'), { 'cursorAuth/accessToken': PLAIN_TOKEN, 'storage.serviceMachineId': MACHINE_ID_UUID });
    const ok = await bridge(h, ['auth'], { SWITCHBOARD_BRIDGE_DB: db });
    expect(ok).toMatchObject({ code: 0, err: '' });
    expect(ok.out).toContain('Credentials imported (auto-detect)');
    const missing = await bridge(h, ['auth'], { SWITCHBOARD_BRIDGE_DB: path.join(h.root, 'nope.vscdb') });
    expect(missing.code).toBe(1);
    expect(missing.err).toMatch(/^switchboard: Editor database not found: /);
    const noSqlite = await bridge(h, ['auth'], { SWITCHBOARD_BRIDGE_DB: db, SWITCHBOARD_SQLITE3: path.join(h.root, 'no-sqlite3') });
    expect(noSqlite.code).toBe(1);
    expect(noSqlite.err).toMatch(/^switchboard: sqlite3 is not available: /);
  });

  it('enable and disable write config.yaml and keep its comments', async () => {
    const h = await home();
    expect((await bridge(h, ['enable'])).out).toBe('Bridge enabled (cursor.enabled: true)\n');
    const config = path.join(h.env.SWITCHBOARD_HOME!, 'config.yaml');
    expect(await fs.readFile(config, 'utf8')).toMatch(/# mine[\s\S]*enabled: true/);
    expect((await bridge(h, ['disable'])).out).toBe('Bridge disabled (cursor.enabled: false)\n');
    expect(await fs.readFile(config, 'utf8')).toMatch(/# mine[\s\S]*enabled: false/);
  });

  it('start refuses with exit 1 when disabled or without credentials', async () => {
    const h = await home();
    const disabled = await bridge(h, ['start']);
    expect(disabled).toMatchObject({ code: 1, out: '' });
    expect(disabled.err).toMatch(/^switchboard: Bridge is disabled/);
    await bridge(h, ['enable']);
    const missing = await bridge(h, ['start']);
    expect(missing.code).toBe(1);
    expect(missing.err).toMatch(/^switchboard: Bridge credentials missing/);
  });

  it('status, models, start, stop against the real daemon', async () => {
    const h = await home('  enabled: true\n  model: gpt-5\n');
    await bridge(h, ['auth', '--manual', '--token', PLAIN_TOKEN, '--machine-id', MACHINE_ID_HEX]);
    const before = await bridge(h, ['status']);
    expect(before.code).toBe(0);
    expect(before.out).toContain('  Enabled:      yes');
    expect(before.out).toMatch(/Credentials: {2}valid \(manual, imported 0 h ago, expires \d{4}-/);
    expect(before.out).toContain(`  Daemon:       stopped (port ${h.port})`);
    const builtIn = await bridge(h, ['models']);
    expect(builtIn.out).toContain('built-in list');
    expect(builtIn.out).toMatch(/^\* gpt-5 +GPT-5 \(openai\)$/m);

    const start = await bridge(h, ['start']);
    expect(start.code).toBe(0);
    const pid = Number(/pid (\d+)/.exec(start.out)![1]);
    expect(start.out).toContain(`started on http://127.0.0.1:${h.port}`);
    expect(isProcessAlive(pid)).toBe(true);
    expect((await bridge(h, ['start'])).out).toContain('already running');
    expect((await bridge(h, ['status'])).out).toContain(`  Daemon:       running (pid ${pid}, http://127.0.0.1:${h.port})`);
    const live = await bridge(h, ['models']);
    expect(live.out).toContain('from the running daemon');
    for (const id of UPSTREAM_MODELS) expect(live.out).toContain(id);

    expect((await bridge(h, ['stop'])).out).toBe(`Bridge daemon stopped (pid ${pid})\n`);
    expect(isProcessAlive(pid)).toBe(false);
    expect(await bridge(h, ['stop'])).toMatchObject({ code: 0, out: 'Bridge daemon is not running\n' });
  });

  it('models from a hostile upstream catalog reach the terminal escaped (issue 27 point 6)', async () => {
    const h = await home('  enabled: true\n  model: gpt-5\n');
    await bridge(h, ['auth', '--manual', '--token', PLAIN_TOKEN, '--machine-id', MACHINE_ID_HEX]);
    upstream.behaviour.modelIds = ['gpt-5', ...Object.values(HOSTILE).map((t) => `evil${t}`)];
    try {
      expect((await bridge(h, ['start'])).code).toBe(0);
      const live = await bridge(h, ['models']);
      expect(live.out).toContain('from the running daemon');
      expect(live.out).toContain('evil\\x1b]52;c;');
      expect(live.out).not.toMatch(RAW_CONTROL);
      expect(live.err).not.toMatch(RAW_CONTROL);
    } finally {
      delete upstream.behaviour.modelIds;
    }
  });

  it('disable also stops a running daemon', async () => {
    const h = await home('  enabled: true\n');
    await bridge(h, ['auth', '--manual', '--token', PLAIN_TOKEN, '--machine-id', MACHINE_ID_HEX]);
    const pid = Number(/pid (\d+)/.exec((await bridge(h, ['start'], {}, stubDaemon)).out)![1]);
    expect((await bridge(h, ['disable'])).out).toBe(`Bridge disabled (cursor.enabled: false); daemon stopped (pid ${pid})\n`);
    expect(isProcessAlive(pid)).toBe(false);
  });

  it('the deprecated cursor form forwards with one warning line on stderr', async () => {
    const h = await home();
    let out = '';
    let err = '';
    const code = await runCursorAlias(['enable'], h.env, { out: (t) => (out += t), err: (t) => (err += t) });
    expect(code).toBe(0);
    expect(err).toBe("switchboard: 'switchboard cursor' is deprecated; use 'switchboard bridge' instead\n");
    expect(out).toBe('Bridge enabled (cursor.enabled: true)\n');
  });
});

/** The real command, as a user runs it (from dist/ under `npm test`, else from sources). */
function cli(args: string[], env: NodeJS.ProcessEnv) {
  const entry = nodeEntry('main/cli/main');
  return new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
    execFile(
      entry.command,
      [...entry.args, ...args],
      // Only a bound against a hang: from sources through tsx on a busy machine a run takes tens of seconds.
      { env: { ...process.env, ...entry.env, ...env }, timeout: 180_000 },
      (error, stdout, stderr) => resolve({ code: error ? (typeof error.code === 'number' ? error.code : 1) : 0, stdout, stderr }),
    );
  });
}

describe('switchboard bridge (as a process)', () => {
  it('start returns while the daemon keeps running; stop from another process ends it', async () => {
    const h = await home('  enabled: true\n');
    await bridge(h, ['auth', '--manual', '--token', PLAIN_TOKEN, '--machine-id', MACHINE_ID_HEX]);
    const start = await cli(['bridge', 'start'], h.env);
    expect(start.code).toBe(0);
    const pid = Number(/pid (\d+)/.exec(start.stdout)![1]);
    expect(isProcessAlive(pid)).toBe(true);
    expect(await (await fetch(`http://127.0.0.1:${h.port}/health`)).json()).toEqual({ ok: true, service: 'switchboard-bridge' });
    const stop = await cli(['bridge', 'stop'], h.env);
    expect(stop).toMatchObject({ code: 0, stdout: `Bridge daemon stopped (pid ${pid})\n` });
    expect(isProcessAlive(pid)).toBe(false);
  }, 400_000);

  it('exit code 1 for a failed action; the cursor form warns once on stderr', async () => {
    const h = await home();
    const old = await cli(['cursor', 'start'], h.env);
    expect(old.code).toBe(1);
    const lines = old.stderr.trim().split('\n');
    expect(lines).toEqual(["switchboard: 'switchboard cursor' is deprecated; use 'switchboard bridge' instead", expect.stringMatching(/^switchboard: Bridge is disabled/)]);
  });

  it('exit code 2 for usage errors, through the top-level entry', async () => {
    const h = await home();
    const errors: string[] = [];
    const write = process.stderr.write;
    process.stderr.write = ((t: string) => errors.push(t) > 0) as unknown as typeof process.stderr.write;
    const saved = process.env.SWITCHBOARD_HOME;
    process.env.SWITCHBOARD_HOME = h.env.SWITCHBOARD_HOME;
    try {
      expect(await main(['bridge', 'nope'])).toBe(2);
      expect(await main(['cursor', 'auth', '--manual'])).toBe(2);
    } finally {
      process.stderr.write = write;
      if (saved === undefined) delete process.env.SWITCHBOARD_HOME;
      else process.env.SWITCHBOARD_HOME = saved;
    }
    expect(errors.join('')).toContain("unknown bridge command 'nope'");
    expect(errors.join('')).toContain('needs --token <ACCESS_TOKEN> and --machine-id <MACHINE_ID>');
  });

  it('is listed in the top-level help', async () => {
    const out: string[] = [];
    const write = process.stdout.write;
    process.stdout.write = ((t: string) => out.push(t) > 0) as unknown as typeof process.stdout.write;
    try {
      expect(await main(['help'])).toBe(0);
    } finally {
      process.stdout.write = write;
    }
    expect(out.join('')).toContain('bridge <command>');
  });
});
