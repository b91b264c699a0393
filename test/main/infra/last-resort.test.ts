import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';

const MODULE = pathToFileURL(path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../main/infra/last-resort.ts')).href;

/** A child that throws outside any handler and rejects a promise nobody awaits, then says it lived. */
function runChild(guarded: boolean) {
  const script = `
    const { installLastResortGuard } = await import(${JSON.stringify(MODULE)});
    const log = (m) => process.stderr.write(m + '\\n');
    if (${guarded}) installLastResortGuard({ debug: log, info: log, warn: log, error: log });
    setTimeout(() => { throw new RangeError('Invalid string length'); }, 1);
    setTimeout(() => { void Promise.reject(new Error('nobody awaited me')); }, 2);
    setTimeout(() => { process.stdout.write('alive'); }, 30);
  `;
  return spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { encoding: 'utf8', timeout: 20_000 });
}

describe('installLastResortGuard', () => {
  it('logs an exception thrown outside any handler and an unhandled rejection, and the process lives on', () => {
    const run = runChild(true);
    expect(run.status).toBe(0);
    expect(run.stdout).toBe('alive');
    expect(run.stderr).toContain('uncaught exception, still serving: RangeError: Invalid string length');
    expect(run.stderr).toContain('unhandled promise rejection, still serving: Error: nobody awaited me');
  });

  it('without it, the same child dies (what `serve` did before)', () => {
    const run = runChild(false);
    expect(run.status).not.toBe(0);
    expect(run.stdout).toBe('');
  });
});
