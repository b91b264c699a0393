import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import fs from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { nodeEntry } from '../../../main/infra/node-entry.js';
import { findFreePort, isPortInUse } from '../../../main/infra/port-probe.js';
import { isProcessAlive } from '../../../main/infra/process-alive.js';
import { waitUntil } from '../../../main/infra/process-wait.js';
import { writeOfflineConfig } from '../../helpers/offline-config.js';

/** `switchboard serve` as a user runs it (from dist/ under `npm test`, else from sources): the home lock, signals, a busy port. */

interface Serve {
  child: ChildProcess;
  stdout: string;
  stderr: string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

const children: ChildProcess[] = [];
const roots: string[] = [];
afterEach(async () => {
  for (const c of children.splice(0)) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
  for (const r of roots.splice(0)) await fs.rm(r, { recursive: true, force: true });
});

async function makeHome(): Promise<{ home: string; agentDir: string }> {
  const root = await fs.mkdtemp(path.join(os.tmpdir(), 'sb-serve-'));
  roots.push(root);
  const home = path.join(root, 'home');
  const agentDir = path.join(root, 'agent');
  await fs.mkdir(agentDir, { recursive: true });
  await writeOfflineConfig(home);
  return { home, agentDir };
}

function serve(dirs: { home: string; agentDir: string }, args: string[]): Serve {
  const entry = nodeEntry('main/cli/main');
  const child = spawn(entry.command, [...entry.args, 'serve', ...args], {
    env: { ...process.env, ...entry.env, HOME: dirs.home, SWITCHBOARD_HOME: dirs.home, SWITCHBOARD_AGENT_DIR: dirs.agentDir, SWITCHBOARD_PORT: '', SWITCHBOARD_LOG_LEVEL: 'info' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  const s: Serve = { child, stdout: '', stderr: '', exited: once(child, 'exit').then(([code, signal]) => ({ code, signal })) };
  child.stdout!.on('data', (d: Buffer) => (s.stdout += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (s.stderr += d.toString()));
  return s;
}

async function listeningUrl(s: Serve): Promise<string> {
  expect(await waitUntil(() => /listening on (\S+)/.test(s.stdout) || s.child.exitCode !== null, 30_000, 20), s.stderr).toBe(true);
  const url = /listening on (\S+)/.exec(s.stdout)?.[1];
  expect(url, s.stderr).toBeDefined();
  return url!;
}

const lockOf = (home: string) => path.join(home, 'switchboard.lock');

describe('one process owns a {config_dir}', () => {
  it('a second serve on the same home exits 1 with one line naming the running one; the first keeps running', async () => {
    const dirs = await makeHome();
    const first = serve(dirs, ['--port', '0']);
    const url = await listeningUrl(first);
    const lock = JSON.parse(await fs.readFile(lockOf(dirs.home), 'utf8'));
    expect(lock).toMatchObject({ pid: first.child.pid, url });

    const second = serve(dirs, ['--port', '0']);
    expect(await second.exited).toEqual({ code: 1, signal: null });
    expect(second.stdout).toBe('');
    expect(second.stderr.trimEnd().split('\n')).toHaveLength(1);
    expect(second.stderr).toBe(
      `switchboard: ${dirs.home} is in use by another Switchboard (pid ${first.child.pid}) at ${url}/ (open it there, or set SWITCHBOARD_HOME to use another home)\n`,
    );
    expect((await fetch(`${url}/api/proxy/proxy-status`)).status).toBe(200);
    expect(JSON.parse(await fs.readFile(lockOf(dirs.home), 'utf8')).pid).toBe(first.child.pid);
    first.child.kill('SIGTERM');
    expect(await first.exited).toEqual({ code: 0, signal: null });
  }, 60_000);

  it('takes over a stale lock whose pid is gone', async () => {
    const dirs = await makeHome();
    const dead = spawn(process.execPath, ['-e', '']);
    await once(dead, 'exit');
    expect(isProcessAlive(dead.pid!)).toBe(false);
    await fs.writeFile(lockOf(dirs.home), JSON.stringify({ pid: dead.pid, url: 'http://127.0.0.1:1', startedAt: 1, argv: ['x'] }));
    const s = serve(dirs, ['--port', '0']);
    const url = await listeningUrl(s);
    expect(JSON.parse(await fs.readFile(lockOf(dirs.home), 'utf8'))).toMatchObject({ pid: s.child.pid, url });
    s.child.kill('SIGINT');
    expect(await s.exited).toEqual({ code: 0, signal: null });
  }, 60_000);

  it('takes over a lock whose live pid runs another program now (pid reused)', async () => {
    const dirs = await makeHome();
    await fs.writeFile(lockOf(dirs.home), JSON.stringify({ pid: process.pid, url: null, startedAt: 1, argv: ['/nowhere/switchboard-main.js', 'serve'] }));
    const s = serve(dirs, ['--port', '0']);
    await listeningUrl(s);
    s.child.kill('SIGTERM');
    expect(await s.exited).toEqual({ code: 0, signal: null });
  }, 60_000);

  it.each(['SIGTERM', 'SIGINT'] as const)('releases the lock on %s', async (signal) => {
    const dirs = await makeHome();
    const s = serve(dirs, ['--port', '0']);
    await listeningUrl(s);
    await fs.access(lockOf(dirs.home));
    s.child.kill(signal);
    expect(await s.exited).toEqual({ code: 0, signal: null });
    await expect(fs.access(lockOf(dirs.home))).rejects.toThrow();
    // The home is free again: the next serve starts.
    const next = serve(dirs, ['--port', '0']);
    await listeningUrl(next);
    next.child.kill('SIGTERM');
    expect(await next.exited).toEqual({ code: 0, signal: null });
  }, 60_000);
});

describe('start-up signals and a busy port', () => {
  it('a SIGTERM as soon as the port accepts connections shuts down cleanly (handlers come first)', async () => {
    const dirs = await makeHome();
    const port = await findFreePort();
    const s = serve(dirs, ['--port', String(port)]);
    // The port accepts connections before the services load: signal in that window.
    expect(await waitUntil(() => isPortInUse(port, '127.0.0.1', 50), 30_000, 2)).toBe(true);
    s.child.kill('SIGTERM');
    expect(await s.exited).toEqual({ code: 0, signal: null });
    expect(s.stderr).toContain('SIGTERM received, shutting down');
    await expect(fs.access(lockOf(dirs.home))).rejects.toThrow();
  }, 60_000);

  it('a busy API port gives one line and exit 1, no stack trace', async () => {
    const dirs = await makeHome();
    const blocker = net.createServer();
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
    const port = (blocker.address() as net.AddressInfo).port;
    try {
      const s = serve(dirs, ['--port', String(port)]);
      expect(await s.exited).toEqual({ code: 1, signal: null });
      expect(s.stderr).toBe(
        `switchboard: port ${port} is in use (is Switchboard already running? open http://127.0.0.1:${port}/, or pass --port / SWITCHBOARD_PORT)\n`,
      );
      // The failed start left the home free.
      await expect(fs.access(lockOf(dirs.home))).rejects.toThrow();
    } finally {
      blocker.close();
    }
  }, 60_000);
});
