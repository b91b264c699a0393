import { execFileSync } from 'node:child_process';
import fs from 'node:fs/promises';
import net from 'node:net';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { isHttpOk } from '../../../main/infra/http-probe.js';
import { killTree } from '../../../main/infra/kill-tree.js';
import { isProcessAlive } from '../../../main/infra/process-alive.js';
import { waitUntil } from '../../../main/infra/process-wait.js';
import { SupervisorError } from '../../../main/infra/process-supervisor.js';
import { FAKE_SERVER, fakeSupervisor, spawnBystander, waitDead, type FakeSupervisor } from '../../fixtures/supervised.js';

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

async function make(...args: Parameters<typeof fakeSupervisor>): Promise<FakeSupervisor> {
  const f = await fakeSupervisor(...args);
  cleanups.push(f.cleanup);
  return f;
}

/** Children of this test process still running fake-server.mjs. */
function fakeChildren(): number[] {
  const out = execFileSync('ps', ['-o', 'pid=,args=', '--ppid', String(process.pid)], { encoding: 'utf8' });
  return out
    .split('\n')
    .filter((l) => l.includes('fake-server.mjs'))
    .map((l) => Number(l.trim().split(/\s+/)[0]));
}

describe('ProcessSupervisor state machine', () => {
  it('starts, reports running, joins a second start, stops, and reports a second stop as a no-op', async () => {
    const f = await make();
    f.clock.set(1_700_000_000_000);
    const started = await f.supervisor.start();
    expect(started).toEqual({ alreadyRunning: false, pid: expect.any(Number), port: f.port });
    expect(f.supervisor.status()).toMatchObject({ state: 'running', pid: started.pid, port: f.port, startedAt: 1_700_000_000_000 });
    const record = JSON.parse(await fs.readFile(f.stateFile, 'utf8'));
    expect(record).toMatchObject({ name: 'fake', pid: started.pid, port: f.port, startedAt: 1_700_000_000_000 });
    expect((await fs.stat(f.stateFile)).mode & 0o777).toBe(0o600);

    expect(await f.supervisor.start()).toEqual({ alreadyRunning: true, pid: started.pid, port: f.port });

    expect(await f.supervisor.stop()).toEqual({ stopped: true, pid: started.pid });
    expect(isProcessAlive(started.pid)).toBe(false);
    expect(f.supervisor.status()).toMatchObject({ state: 'stopped', lastExit: { expected: true } });
    expect(f.supervisor.status().pid).toBeUndefined();
    await expect(fs.access(f.stateFile)).rejects.toThrow();

    expect(await f.supervisor.stop()).toEqual({ stopped: false });
    expect(f.changes.map((c) => c.state)).toEqual(expect.arrayContaining(['starting', 'running', 'stopping', 'stopped']));
  });

  it('shares one start between concurrent callers', async () => {
    const f = await make({ FAKE_READY_DELAY_MS: '150' });
    const [a, b] = await Promise.all([f.supervisor.start(), f.supervisor.start()]);
    expect(a.pid).toBe(b.pid);
    expect(fakeChildren()).toEqual([a.pid]);
  });

  it('rejects a start whose child exits, with the tail of its output', async () => {
    const f = await make({ FAKE_FAIL_START: 'listen EADDRINUSE: address already in use 127.0.0.1:1' });
    const err = await f.supervisor.start().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(SupervisorError);
    expect((err as Error).message).toMatch(/exited during start \(code 3\)/);
    expect((err as Error).message).toContain('address already in use');
    expect(f.supervisor.status()).toMatchObject({ state: 'failed', lastError: expect.stringContaining('address already in use') });
  });

  it('reads the output tail from the output file when one is used (detached child)', async () => {
    let outputFile = '';
    const f = await make(
      {},
      {
        launch: async () => ({
          command: process.execPath,
          args: [FAKE_SERVER],
          env: { FAKE_FAIL_START: 'bad config line 3' },
          outputFile,
          detached: true,
        }),
      },
    );
    outputFile = path.join(f.dir, 'out.log');
    await expect(f.supervisor.start()).rejects.toThrow(/bad config line 3/);
    expect(await fs.readFile(outputFile, 'utf8')).toContain('fake server starting');
  });

  it('rejects a start whose command cannot be launched, naming the cause', async () => {
    const f = await make({}, { launch: async () => ({ command: '/nonexistent/proxy-binary', args: [], outputFile: '' }) });
    const err = await f.supervisor.start().catch((e: unknown) => e);
    expect((err as Error).message).toMatch(/exited during start .*failed to launch \/nonexistent\/proxy-binary: spawn \/nonexistent\/proxy-binary ENOENT/s);
    expect(f.supervisor.status().state).toBe('failed');
  });

  it('gives up when the health check never passes, and kills the child', async () => {
    const f = await make({ FAKE_NEVER_LISTEN: '1' }, { readyTimeoutMs: 300, stopGraceMs: 500 });
    const err = await f.supervisor.start().catch((e: unknown) => e);
    expect((err as Error).message).toBe('fake did not answer its health check within 300 ms');
    const pid = f.changes.find((c) => c.pid)?.pid;
    expect(pid).toBeDefined();
    expect(isProcessAlive(pid!)).toBe(false);
    expect(f.supervisor.status().state).toBe('failed');
  });

  it('refuses to start when another process holds the port', async () => {
    const f = await make();
    const blocker = net.createServer();
    await new Promise<void>((r) => blocker.listen(f.port, '127.0.0.1', r));
    cleanups.push(() => new Promise((r) => blocker.close(() => r())));
    await expect(f.supervisor.start()).rejects.toThrow(`port ${f.port} is already in use by another process`);
    expect(fakeChildren()).toEqual([]);
  });

  it('handles a stop that arrives while starting: the child is stopped and start rejects', async () => {
    const f = await make({ FAKE_READY_DELAY_MS: '2000' });
    const start = f.supervisor.start();
    await waitUntil(() => f.supervisor.status().pid !== undefined, 2_000, 10);
    const pid = f.supervisor.status().pid!;
    const stop = await f.supervisor.stop();
    expect(stop).toEqual({ stopped: true, pid });
    await expect(start).rejects.toThrow('fake start cancelled by stop');
    expect(isProcessAlive(pid)).toBe(false);
    expect(f.supervisor.status().state).toBe('stopped');
  });
});

describe('ProcessSupervisor faults', () => {
  it('notices a child killed behind its back within 2 s', async () => {
    const f = await make();
    const { pid } = await f.supervisor.start();
    const t0 = performance.now();
    process.kill(pid, 'SIGKILL');
    expect(await waitUntil(() => f.supervisor.status().state === 'failed', 2_000, 10)).toBe(true);
    expect(performance.now() - t0).toBeLessThan(2_000);
    expect(f.supervisor.status()).toMatchObject({ state: 'failed', lastExit: { signal: 'SIGKILL', expected: false } });
    await waitUntil(async () => !(await fs.access(f.stateFile).then(() => true, () => false)), 1_000, 10);
    await expect(fs.access(f.stateFile)).rejects.toThrow();
    expect(await f.supervisor.stop()).toEqual({ stopped: false });
  });

  it('SIGKILLs a child that ignores SIGTERM once the grace period is over', async () => {
    const signals: string[] = [];
    const f = await make(
      { FAKE_IGNORE_SIGTERM: '1' },
      {
        stopGraceMs: 300,
        killTree: async (pid, signal) => {
          signals.push(signal);
          await killTree(pid, signal);
        },
      },
    );
    const { pid } = await f.supervisor.start();
    const t0 = performance.now();
    expect(await f.supervisor.stop()).toEqual({ stopped: true, pid });
    const took = performance.now() - t0;
    expect(signals).toEqual(['SIGTERM', 'SIGKILL']);
    expect(took).toBeGreaterThanOrEqual(290);
    expect(isProcessAlive(pid)).toBe(false);
    expect(f.supervisor.status().lastExit).toMatchObject({ signal: 'SIGKILL', expected: true });
  });

  // 20 cycles: each spawns a Node child, which takes seconds on a busy machine (bench:soak runs 200).
  it('leaves no process behind after 20 start/stop cycles', async () => {
    const f = await make();
    const pids: number[] = [];
    for (let i = 0; i < 20; i++) {
      pids.push((await f.supervisor.start()).pid);
      await f.supervisor.stop();
    }
    expect(pids).toHaveLength(20);
    expect(new Set(pids).size).toBe(20);
    expect(pids.filter(isProcessAlive)).toEqual([]);
    expect(fakeChildren()).toEqual([]);
  }, 300_000);
});

describe('ProcessSupervisor adoption', () => {
  it('adopts a child left running by a previous app run, watches it, and can stop it', async () => {
    const first = await make();
    first.clock.set(1_800_000_000_000);
    const { pid } = await first.supervisor.start();
    await first.supervisor.dispose(); // the app quits with keep-running

    const second = await make({}, { stateFile: first.stateFile, port: () => first.port });
    expect(await second.supervisor.adopt()).toBe(true);
    expect(second.supervisor.status()).toMatchObject({ state: 'running', pid, port: first.port, startedAt: 1_800_000_000_000 });
    expect(await second.supervisor.start()).toEqual({ alreadyRunning: true, pid, port: first.port });
    expect(await second.supervisor.stop()).toEqual({ stopped: true, pid });
    expect(await waitDead(pid)).toBe(true);
  });

  it('notices an adopted process dying within 2 s', async () => {
    const first = await make();
    const { pid } = await first.supervisor.start();
    await first.supervisor.dispose();
    const second = await make({}, { stateFile: first.stateFile, port: () => first.port });
    expect(await second.supervisor.adopt()).toBe(true);
    process.kill(pid, 'SIGKILL');
    expect(await waitUntil(() => second.supervisor.status().state === 'failed', 2_000, 10)).toBe(true);
    expect(second.supervisor.status().lastError).toContain('exited unexpectedly');
  });

  it('never adopts or kills an unrelated live pid found in a stale state file', async () => {
    const bystander = spawnBystander();
    cleanups.push(async () => {
      bystander.kill('SIGKILL');
    });
    const f = await make();
    await fs.writeFile(
      f.stateFile,
      JSON.stringify({ name: 'fake', pid: bystander.pid, port: f.port, startedAt: 1, argv: [process.execPath, 'fake-server.mjs'] }),
    );
    expect(await f.supervisor.adopt()).toBe(false);
    expect(await f.supervisor.stop()).toEqual({ stopped: false });
    expect(isProcessAlive(bystander.pid!)).toBe(true);
    await expect(fs.access(f.stateFile)).rejects.toThrow();
    expect(f.supervisor.status().state).toBe('stopped');
  });

  it('ignores a state file whose pid is dead or whose content is garbage', async () => {
    const f = await make();
    const gone = spawnBystander();
    const pid = gone.pid!;
    gone.kill('SIGKILL');
    await waitDead(pid);
    await fs.writeFile(f.stateFile, JSON.stringify({ name: 'fake', pid, port: f.port, startedAt: 1, argv: ['x'] }));
    expect(await f.supervisor.adopt()).toBe(false);
    await fs.writeFile(f.stateFile, 'not json');
    expect(await f.supervisor.adopt()).toBe(false);
    expect((await f.supervisor.start()).alreadyRunning).toBe(false);
    expect(await isHttpOk(`http://127.0.0.1:${f.port}/`)).toBe(true);
  });
});
