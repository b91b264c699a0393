import { execFile, spawn } from 'node:child_process';
import { once } from 'node:events';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { assertNothingLeft, RUN_MARKER, survivors } from './run-marker.js';
import { assertNoTempLeft, RUN_TEMP } from './run-temp.js';

const run = promisify(execFile);
const root = path.resolve(__dirname, '../..');

/** A nested vitest run of one fixture of test/fixtures/leak/ under the real global setup; its failure, or null. */
function nestedRun(fixture: string) {
  return run(process.execPath, [path.join(root, 'node_modules/vitest/vitest.mjs'), 'run', '--config', path.join(root, 'test/fixtures/leak/vitest.config.ts'), fixture], {
    cwd: root,
    env: { ...process.env, CI: '', SWITCHBOARD_LEAK_GRACE_MS: '500' },
  }).then(
    () => null,
    (e: { code: number; stdout: string; stderr: string }) => e,
  );
}

function idle(marker: string) {
  return spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore', detached: true, env: { ...process.env, [RUN_MARKER]: marker } });
}

describe('the leak check', () => {
  it('finds a detached process carrying the marker, kills it and names it', async () => {
    const marker = `unit-${process.pid}-${Date.now()}`;
    const child = idle(marker);
    const exited = new Promise((resolve) => child.once('exit', resolve));
    expect(survivors(marker).map((p) => p.pid)).toEqual([child.pid]);
    await expect(assertNothingLeft(marker, 'unit', 300)).rejects.toThrow(new RegExp(`unit left 1 process\\(es\\)[^]*pid ${child.pid} `));
    await exited;
    expect(survivors(marker)).toEqual([]);
  });

  it('waits for a process that is already exiting instead of failing', async () => {
    const marker = `unit-exiting-${process.pid}-${Date.now()}`;
    const child = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 700)'], { stdio: 'ignore', env: { ...process.env, [RUN_MARKER]: marker } });
    const exited = once(child, 'exit');
    await expect(assertNothingLeft(marker, 'unit', 30_000)).resolves.toBeUndefined();
    // Gone from /proc (a zombie has no environ) may come before this process hears of the exit:
    // wait for the event, then check it ended by itself, not by the check's SIGKILL.
    expect(await exited).toEqual([0, null]);
  });

  it('ignores this process and its ancestors, which carry the run marker too', () => {
    expect(process.env[RUN_MARKER]).toBeTruthy();
    expect(survivors(process.env[RUN_MARKER]!).map((p) => p.pid)).not.toContain(process.pid);
    expect(survivors(process.env[RUN_MARKER]!).map((p) => p.pid)).not.toContain(process.ppid);
  });

  it('fails a whole vitest run (exit code 1) that leaves a process behind, naming it', async () => {
    const err = await nestedRun('leaky.fixture');
    expect(err?.code).toBe(1);
    expect(`${err?.stdout}${err?.stderr}`).toMatch(/vitest left 1 process\(es\) running after the run \(now killed\):\n\s+pid \d+ \(parent \d+\): \S*node -e setInterval\(\(\) => \{\}, 1000\) switchboard-leak-fixture/);
  }, 120_000);

  it('runs this run in a temp folder of its own, which every child inherits', () => {
    expect(process.env[RUN_TEMP]).toBeTruthy();
    expect(os.tmpdir()).toBe(process.env[RUN_TEMP]);
  });

  it('names and removes what is left in the run temp folder, and passes an empty one', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sb-unit-run-'));
    fs.mkdirSync(path.join(dir, 'sb-reqlog-abc123'));
    fs.writeFileSync(path.join(dir, 'stray.txt'), '');
    expect(() => assertNoTempLeft(dir, 'unit')).toThrow(/unit left 2 temporary entries in .*sb-unit-run-\w+ \(now removed\):\n {2}sb-reqlog-abc123\n {2}stray\.txt$/);
    expect(fs.existsSync(dir)).toBe(false);

    // A tool's own cache (tsx's, per user) is not a leak.
    const empty = fs.mkdtempSync(path.join(os.tmpdir(), 'sb-unit-run-'));
    fs.mkdirSync(path.join(empty, 'tsx-0'));
    expect(() => assertNoTempLeft(empty, 'unit')).not.toThrow();
    expect(fs.existsSync(empty)).toBe(false);
  });

  it('fails a whole vitest run (exit code 1) that leaves a temp folder behind, naming it', async () => {
    const err = await nestedRun('temp-leak.fixture');
    expect(err?.code).toBe(1);
    expect(`${err?.stdout}${err?.stderr}`).toMatch(/vitest left 1 temporary entry in \S+ \(now removed\):\n\s+sb-forgotten-\w+/);
  }, 120_000);
});
