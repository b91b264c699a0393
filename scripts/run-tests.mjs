#!/usr/bin/env node
// `npm test`: type-check, build, then the vitest suite and the Playwright suite, ALWAYS both (a
// failure in one does not hide the other's count), then one line per step and the closing line
// `N passed, N failed` for the whole run. Exits non-zero when anything failed.
//
//   node scripts/run-tests.mjs [--also-node <path to a node binary>]... [--only vitest|playwright]
//                              [--no-build]   (skip type-check and build: test:stress builds once;
//                                              vitest's child processes run from dist/, so it must be current)
//
// --also-node runs the vitest suite once more on that Node (CI: the major Electron bundles); its
// counts join the total. A step that fails without a test count (type errors, a build error, a
// runner that crashed, or the run's leak check) counts as one failure, named in its line.
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
process.chdir(root);

const args = process.argv.slice(2);
const alsoNodes = [];
let only;
let build = true;
for (let i = 0; i < args.length; i++) {
  if (args[i] === '--also-node' && args[i + 1]) alsoNodes.push(args[++i]);
  else if (args[i] === '--no-build') build = false;
  else if (args[i] === '--only' && args[i + 1]) only = args[++i];
  else {
    console.error(`run-tests: unknown argument ${args[i]}`);
    process.exit(2);
  }
}

const results = 'test-results';
fs.mkdirSync(results, { recursive: true });
const rows = [];

/** Runs a command with inherited output; resolves with its exit code and wall time. */
function run(command, commandArgs, env = {}) {
  return new Promise((resolve) => {
    const t0 = performance.now();
    const child = spawn(command, commandArgs, { stdio: 'inherit', env: { ...process.env, ...env } });
    const forward = (signal) => child.kill(signal);
    process.on('SIGINT', forward);
    process.on('SIGTERM', forward);
    child.once('error', (err) => {
      console.error(`run-tests: could not start ${command}: ${err.message}`);
      resolve({ code: 127, seconds: 0 });
    });
    child.once('exit', (code, signal) => {
      process.off('SIGINT', forward);
      process.off('SIGTERM', forward);
      resolve({ code: code ?? (signal ? 128 : 1), seconds: (performance.now() - t0) / 1000 });
    });
  });
}

function readJson(file) {
  try {
    return JSON.parse(fs.readFileSync(file, 'utf8'));
  } catch {
    return null;
  }
}

/** A step without test counts: passes or counts as one failure. */
async function step(name, command, commandArgs) {
  console.log(`\n=== ${name} ===`);
  const r = await run(command, commandArgs);
  rows.push({ name, passed: 0, failed: r.code === 0 ? 0 : 1, skipped: 0, seconds: r.seconds, note: r.code === 0 ? 'ok' : `exit ${r.code}` });
}

async function vitest(name, node) {
  const report = path.join(results, `${name.replace(/[^a-z0-9.]+/gi, '-')}.json`);
  fs.rmSync(report, { force: true });
  console.log(`\n=== ${name} ===`);
  // The suite runs from sources; the processes it starts (proxy engine, bridge daemon, CLI) run
  // from the dist/ just built (main/infra/node-entry.ts), as the app runs them.
  const r = await run(node, ['node_modules/vitest/vitest.mjs', 'run', '--reporter=default', '--reporter=json', `--outputFile.json=${report}`], { SWITCHBOARD_CHILDREN_FROM_DIST: '1' });
  const j = readJson(report);
  const row = { name, passed: j?.numPassedTests ?? 0, failed: j?.numFailedTests ?? 0, skipped: (j?.numPendingTests ?? 0) + (j?.numTodoTests ?? 0), seconds: r.seconds };
  // A failed file that ran no test (an import error) or the leak check fail the run without a failed test.
  const failedSuites = j ? j.testResults.filter((t) => t.status === 'failed' && t.assertionResults.every((a) => a.status !== 'failed')).length : 0;
  if (failedSuites > 0) row.failed += failedSuites;
  if (r.code !== 0 && row.failed === 0) {
    row.failed = 1;
    row.note = `${row.note ? `${row.note}, ` : ''}exit ${r.code} with no failed test: see the output above (leak check: processes or temp folders left; crash)`;
  }
  rows.push(row);
}

async function playwright() {
  const report = path.join(results, 'e2e.json');
  fs.rmSync(report, { force: true });
  console.log('\n=== playwright ===');
  const r = await run(process.execPath, ['node_modules/@playwright/test/cli.js', 'test', '--reporter=line,json'], {
    PLAYWRIGHT_JSON_OUTPUT_FILE: report,
    PLAYWRIGHT_JSON_OUTPUT_NAME: report,
  });
  const j = readJson(report);
  const s = j?.stats;
  const row = { name: 'playwright', passed: s ? s.expected + s.flaky : 0, failed: s ? s.unexpected : 0, skipped: s?.skipped ?? 0, seconds: r.seconds };
  const globalErrors = j?.errors?.length ?? 0;
  if (globalErrors > 0) {
    row.failed += globalErrors;
    row.note = `${globalErrors} error(s) outside tests (setup, teardown, leak check: processes or temp folders left)`;
  }
  if (r.code !== 0 && row.failed === 0) {
    row.failed = 1;
    row.note = `exit ${r.code} with no failed test: see the output above`;
  }
  rows.push(row);
}

/** The version a node binary reports (`v24.11.1` → `24.11.1`). */
function readVersion(node) {
  const r = spawnSync(node, ['--version'], { encoding: 'utf8' });
  return r.status === 0 ? r.stdout.trim().replace(/^v/, '') : node;
}

const t0 = performance.now();
if (!only && build) {
  await step('typecheck', 'npm', ['run', '--silent', 'typecheck']);
  await step('build', 'npm', ['run', '--silent', 'build']);
}
if (!only || only === 'vitest') {
  await vitest(`vitest on node ${process.versions.node}`, process.execPath);
  for (const node of alsoNodes) await vitest(`vitest on node ${readVersion(node)}`, node);
}
if (!only || only === 'playwright') await playwright();

console.log('\n=== summary ===');
for (const r of rows) {
  const counts = r.passed || r.skipped || r.name.startsWith('vitest') || r.name === 'playwright' ? `${r.passed} passed, ${r.failed} failed${r.skipped ? `, ${r.skipped} skipped` : ''}` : r.failed ? 'failed' : 'ok';
  console.log(`${r.name}: ${counts} (${r.seconds.toFixed(0)} s)${r.note && r.note !== 'ok' ? ` — ${r.note}` : ''}`);
}
const passed = rows.reduce((n, r) => n + r.passed, 0);
const failed = rows.reduce((n, r) => n + r.failed, 0);
console.log(`wall time: ${((performance.now() - t0) / 1000).toFixed(0)} s`);
console.log(`${passed} passed, ${failed} failed`);
process.exitCode = failed > 0 ? 1 : 0;
