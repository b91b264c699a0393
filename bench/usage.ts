// npm run bench:usage — this project's usage scanner next to ccusage 20.0.24 on generated corpora.
//   BENCH_SIZES=100MB,1GB (default both)  BENCH_RUNS=5  BENCH_LOAD_SECONDS=10 (0 skips the load rows)
// Corpora are written once into bench/.corpus/<size> (gitignored) by scripts/gen-usage.mjs
// --seed 42 and reused. Each measurement runs in its own process, one at a time, from a compiled
// copy of main/ (bench/.corpus/build), so no TypeScript loader is timed.
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { load, printTable, startBaseline, type LoadResult } from './lib.js';
import { buildForBench } from './usage-build.js';

const root = process.cwd();
const corpora = path.join(root, 'bench', '.corpus');
const build = path.join(corpora, 'build');
const child = path.join(build, 'dist', 'bench', 'usage-child.js');
const generator = path.join(root, 'scripts', 'gen-usage.mjs');
const cli = path.join(build, 'dist', 'main', 'cli', 'main.js');
const ccusage = path.join(root, 'node_modules', '.bin', 'ccusage');
const sizes = (process.env.BENCH_SIZES ?? '100MB,1GB').split(',').map((s) => s.trim()).filter(Boolean);
const runs = Number(process.env.BENCH_RUNS ?? 5);
const loadSeconds = Number(process.env.BENCH_LOAD_SECONDS ?? 10);
const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'switchboard-bench-usage-'));

interface Timed {
  wallMs: number;
  rssMiB: number;
  stdout: string;
}

/** Runs a command under /usr/bin/time: wall time from spawn to exit, peak RSS of the process tree. */
function timed(command: string, args: string[], env: NodeJS.ProcessEnv = process.env): Promise<Timed> {
  return new Promise((resolve, reject) => {
    const t0 = performance.now();
    const p = spawn('/usr/bin/time', ['-f', 'RSS_KB=%M', command, ...args], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    p.stdout.on('data', (c: Buffer) => (stdout += c));
    p.stderr.on('data', (c: Buffer) => (stderr += c));
    p.on('error', reject);
    p.on('exit', (code) => {
      const wallMs = performance.now() - t0;
      const rss = /RSS_KB=(\d+)/.exec(stderr);
      if (code !== 0 || !rss) reject(new Error(`${path.basename(command)} ${args.join(' ')} exited ${code}: ${stderr.slice(-2000)}`));
      else resolve({ wallMs, rssMiB: Number(rss[1]) / 1024, stdout });
    });
  });
}

function corpusFor(size: string): string {
  const dir = path.join(corpora, size);
  const manifest = path.join(dir, 'gen-manifest.json');
  const reusable = fs.existsSync(manifest) && JSON.parse(fs.readFileSync(manifest, 'utf8')).args?.bytes === size;
  if (!reusable) {
    console.error(`generating the ${size} corpus in ${dir} …`);
    fs.rmSync(dir, { recursive: true, force: true });
    const r = spawnSync(process.execPath, [generator, '--out', dir, '--bytes', size, '--seed', '42', '--quiet'], { stdio: 'inherit' });
    if (r.status !== 0) throw new Error(`gen-usage.mjs failed for ${size}`);
  }
  return dir;
}

/** A fresh {config_dir} whose instances/ is the corpus's, so both tools read the same files. */
function freshHome(corpus: string): string {
  const home = fs.mkdtempSync(path.join(scratch, 'home-'));
  fs.symlinkSync(path.join(corpus, 'instances'), path.join(home, 'instances'));
  return home;
}

function ccusageEnv(corpus: string): NodeJS.ProcessEnv {
  const emptyHome = path.join(scratch, 'empty-home');
  fs.mkdirSync(emptyHome, { recursive: true });
  const dirs = JSON.parse(fs.readFileSync(path.join(corpus, 'gen-manifest.json'), 'utf8')).claudeConfigDirs as string[];
  return { ...process.env, HOME: emptyHome, CLAUDE_CONFIG_DIR: dirs.map((d) => path.join(corpus, d)).join(',') };
}

/** 1 MiB of fresh, complete transcript lines (new ids) from a small generated corpus. */
function appendChunk(): string {
  const dir = path.join(scratch, 'append-src');
  spawnSync(process.execPath, [generator, '--out', dir, '--bytes', '4MB', '--seed', '977', '--quiet', '--bad-rate', '0'], { stdio: 'inherit' });
  const parts: Buffer[] = [];
  let total = 0;
  for (const file of listJsonl(dir).sort()) {
    const bytes = fs.readFileSync(file);
    const whole = bytes.subarray(0, bytes.lastIndexOf(0x0a) + 1); // complete lines only
    parts.push(whole);
    total += whole.length;
    if (total >= 1 << 20) break;
  }
  const all = Buffer.concat(parts);
  const file = path.join(scratch, 'append.jsonl');
  fs.writeFileSync(file, all.subarray(0, all.lastIndexOf(0x0a, 1 << 20) + 1));
  return file;
}

function listJsonl(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true, recursive: true }).filter((e) => e.isFile() && e.name.endsWith('.jsonl')).map((e) => path.join(e.parentPath, e.name));
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const ms = (x: number) => x.toFixed(x < 10 ? 1 : 0);
const range = (xs: number[]) => `${ms(Math.min(...xs))}–${ms(Math.max(...xs))}`;

async function benchCorpus(size: string): Promise<Array<Record<string, string | number>>> {
  const corpus = corpusFor(size);
  const bytes = listJsonl(corpus).reduce((sum, f) => sum + fs.statSync(f).size, 0);
  const mib = bytes / (1 << 20);
  const rows: Array<Record<string, string | number>> = [];
  const row = (what: string, times: number[], rss: number | null, reference: number | null, note = '') =>
    rows.push({
      corpus: size,
      measurement: what,
      'median ms': ms(median(times)),
      'min–max': range(times),
      'MiB/s': note === 'throughput' ? Math.round(mib / (median(times) / 1000)) : '',
      'peak RSS MiB': rss === null ? '' : Math.round(rss),
      'vs ccusage': reference === null ? '' : (median(times) / reference).toFixed(2),
    });

  // ccusage and our cold scan alternate, one warm-up each, so both see the same page cache and load.
  await timed(ccusage, ['claude', 'daily', '--offline', '--json', '--timezone', 'UTC'], ccusageEnv(corpus));
  await timed(process.execPath, [child, 'cold', corpus, freshHome(corpus)]);
  const theirs: Timed[] = [];
  const ours: Timed[] = [];
  const inProcess: number[] = [];
  const persist: number[] = [];
  // The measure: the whole app as a user starts it on a fresh home, a summary read sent the
  // moment the port listens, from process start to the answer (which waits for the first scan),
  // minus the same start-up on an empty agent dir (measured here too, interleaved).
  const appCold: number[] = [];
  const empty: number[] = [];
  const emptyStart = async () => {
    const emptyAgent = fs.mkdtempSync(path.join(scratch, 'empty-agent-'));
    const emptyHome = fs.mkdtempSync(path.join(scratch, 'empty-home-'));
    const s = await timed(process.execPath, [child, 'startup', emptyAgent, emptyHome], { ...process.env, BENCH_STARTUP_NO_QUIT: '1' });
    return (JSON.parse(s.stdout) as { firstAnswerMs: number }).firstAnswerMs;
  };
  let lastHome = '';
  let tokens: [number, number] = [0, 0];
  for (let i = 0; i < runs; i++) {
    const t = await timed(ccusage, ['claude', 'daily', '--offline', '--json', '--timezone', 'UTC'], ccusageEnv(corpus));
    theirs.push(t);
    lastHome = freshHome(corpus);
    const o = await timed(process.execPath, [child, 'cold', corpus, lastHome]);
    ours.push(o);
    const report = JSON.parse(o.stdout);
    inProcess.push(report.scanMs);
    persist.push(report.persistMs);
    const daily = JSON.parse(t.stdout) as { totals: { totalTokens: number } };
    tokens = [report.totalTokens, daily.totals.totalTokens];
    const a = await timed(process.execPath, [child, 'startup', corpus, freshHome(corpus)], { ...process.env, BENCH_STARTUP_NO_QUIT: '1' });
    const app = JSON.parse(a.stdout) as { firstAnswerMs: number; totalTokens: number };
    if (app.totalTokens !== report.totalTokens) throw new Error(`whole-app cold start: ${a.stdout}`);
    appCold.push(app.firstAnswerMs);
    empty.push(await emptyStart());
  }
  if (tokens[0] !== tokens[1]) throw new Error(`token totals differ: ours ${tokens[0]}, ccusage ${tokens[1]}`);
  const ref = median(theirs.map((t) => t.wallMs));
  row('ccusage claude daily --offline --json (process)', theirs.map((t) => t.wallMs), Math.max(...theirs.map((t) => t.rssMiB)), ref, 'throughput');
  row('switchboard cold scan (process, start to exit)', ours.map((t) => t.wallMs), Math.max(...ours.map((t) => t.rssMiB)), ref, 'throughput');
  row('switchboard cold scan (in process, to first answer)', inProcess, null, ref, 'throughput');
  row('  then writing the disk cache (in process, after the answer)', persist, null, null);
  row('switchboard cold, whole app: spawn to first summary', appCold, null, null);
  row(`  minus empty-dir start-up (medians: ${ms(median(appCold))} − ${ms(median(empty))}): the issue's measure`, [median(appCold) - median(empty)], null, ref);

  const chunk = appendChunk();
  const refresh = await timed(process.execPath, [child, 'refresh', corpus, lastHome, chunk, largestFile(corpus), String(runs)]);
  const r = JSON.parse(refresh.stdout) as { runs: number[]; bytesRead: number };
  row(`refresh after a ${(r.bytesRead / (1 << 20)).toFixed(2)} MiB append (to new answer)`, r.runs, refresh.rssMiB, null);
  const viaApi = await timed(process.execPath, [child, 'refresh-api', corpus, lastHome, chunk, largestFile(corpus), String(runs)]);
  const a = JSON.parse(viaApi.stdout) as { runs: number[]; bytesRead: number };
  row(`POST /api/usage/refresh + summary after a ${(a.bytesRead / (1 << 20)).toFixed(2)} MiB append (HTTP, whole app)`, a.runs, viaApi.rssMiB, null);

  // The terminal report on the warm disk cache, from spawn to exit (the first run after the app's
  // writes brings the cache up to date; the timed ones follow within its fresh minute).
  const cliEnv = { ...process.env, SWITCHBOARD_HOME: lastHome, SWITCHBOARD_AGENT_DIR: corpus };
  await timed(process.execPath, [cli, 'usage', 'daily', '--json', '--tz', 'UTC'], cliEnv);
  const cliRuns: Timed[] = [];
  for (let i = 0; i < runs; i++) cliRuns.push(await timed(process.execPath, [cli, 'usage', 'daily', '--json', '--tz', 'UTC'], cliEnv));
  const cliDaily = JSON.parse(cliRuns[0]!.stdout) as { daily: Array<{ inputTokens: number; outputTokens: number; cacheReadTokens: number; cacheWriteTokens: number }> };
  const cliTokens = cliDaily.daily.reduce((n, d) => n + d.inputTokens + d.outputTokens + d.cacheReadTokens + d.cacheWriteTokens, 0);
  if (cliTokens !== tokens[0]) throw new Error(`CLI token total ${cliTokens} differs from ${tokens[0]}`);
  row('switchboard usage daily --json, warm disk cache (process, spawn to exit)', cliRuns.map((t) => t.wallMs), Math.max(...cliRuns.map((t) => t.rssMiB)), null);

  // Whole app, from process start: first with the disk cache alone (the first start after a scan,
  // or after a crash), then as a restart normally goes, with the answers the last run saved.
  const answersFile = path.join(lastHome, '.cache', 'usage-answers.json');
  const startup = async (keepSaved: boolean) => {
    const times: number[] = [];
    let rss = 0;
    for (let i = 0; i < runs; i++) {
      if (!keepSaved) fs.rmSync(answersFile, { force: true });
      const s = await timed(process.execPath, [child, 'startup', corpus, lastHome]);
      const r = JSON.parse(s.stdout) as { firstAnswerMs: number; totalTokens: number; saved: boolean };
      if (r.totalTokens !== tokens[0] || r.saved !== keepSaved) throw new Error(`startup run: ${s.stdout}`);
      times.push(r.firstAnswerMs);
      rss = Math.max(rss, s.rssMiB);
    }
    return { times, rss };
  };
  // The same start on an empty agent dir and a fresh home (measured above, beside the cold runs):
  // what the app costs with no data at all.
  row('start-up on an empty agent dir, first summary (since process start)', empty, null, null);
  const cacheOnly = await startup(false);
  row('first summary from the disk cache, whole app (since process start)', cacheOnly.times, cacheOnly.rss, null);
  const restart = await startup(true);
  row('first summary after a restart (saved answers), whole app (since process start)', restart.times, restart.rss, null);
  row(`  restart minus empty-dir start-up (medians: ${ms(median(restart.times))} − ${ms(median(empty))})`, [median(restart.times) - median(empty)], null, null);
  const floor: number[] = [];
  for (let i = 0; i < runs; i++) floor.push(JSON.parse((await timed(process.execPath, [child, 'floor', corpus, lastHome])).stdout).firstAnswerMs);
  row('  floor: bare node:http answering its first request (since process start)', floor, null, null);
  const own: number[] = [];
  for (let i = 0; i < runs; i++) own.push(JSON.parse((await timed(process.execPath, [child, 'startup-service', corpus, lastHome])).stdout).serviceToAnswerMs);
  row('first summary from the disk cache, usage service (since its start)', own, null, null);
  rows.push({ corpus: size, measurement: `(${(bytes / 1e6).toFixed(0)} MB of JSONL, ${tokens[0]} tokens, equal in both)`, 'median ms': '', 'min–max': '', 'MiB/s': '', 'peak RSS MiB': '', 'vs ccusage': '' });
  return rows;
}

function largestFile(corpus: string): string {
  return listJsonl(corpus).sort((a, b) => fs.statSync(b).size - fs.statSync(a).size)[0]!;
}

async function loadCached(corpus: string): Promise<LoadResult[]> {
  const home = freshHome(corpus);
  const server = spawn(process.execPath, [child, 'serve', corpus, home], { stdio: ['ignore', 'pipe', 'inherit'] });
  const url = await new Promise<string>((resolve, reject) => {
    let out = '';
    server.stdout.on('data', (c: Buffer) => {
      out += c;
      const line = out.split('\n').find((l) => l.startsWith('{'));
      if (line) resolve(JSON.parse(line).url);
    });
    server.on('exit', (code) => reject(new Error(`bench server exited ${code}`)));
  });
  // The floor: plain node:http answering the same summary bytes, measured the same two ways.
  const body = await (await fetch(`${url}/api/usage/summary`)).text();
  const bare = await startBaseline(body);
  try {
    const results: LoadResult[] = [];
    const targets: Array<[string, string]> = [
      ['baseline: node:http, same summary body', bare.url],
      ...['/api/usage/summary', '/api/usage/daily', '/api/usage/models', '/api/usage/hourly'].map((p): [string, string] => [`GET ${p}`, url + p]),
    ];
    for (const [name, target] of targets) {
      results.push(await load(name, { url: target, connections: 200, duration: loadSeconds }));
      // The same 200 connections capped at 1000 requests/s in all. autocannon sends each second's
      // share in a burst, so even the baseline queues: compare these rows with its row.
      results.push(await load(`${name} (1000 req/s)`, { url: target, connections: 200, duration: loadSeconds, overallRate: 1000 }));
    }
    return results;
  } finally {
    const exited = new Promise((r) => server.once('exit', r));
    server.kill('SIGTERM');
    await Promise.all([exited, bare.stop()]);
  }
}

try {
  console.error('compiling main/ for the benchmark …');
  buildForBench(root, build);
  const rows: Array<Record<string, string | number>> = [];
  for (const size of sizes) rows.push(...(await benchCorpus(size)));
  console.log(`\nusage scan, ${runs} runs each (median), ${os.cpus().length} CPUs, load average ${os.loadavg().map((l) => l.toFixed(1)).join(' ')}`);
  printTable(rows);
  if (loadSeconds > 0) {
    const loadRows = await loadCached(corpusFor(sizes[0]!));
    console.log(`\ncached endpoints, 200 connections, ${loadSeconds} s each (${sizes[0]} corpus)`);
    printTable(loadRows.map((r) => ({ route: r.name, 'req/s': r.rps, 'p50 ms': r.p50, 'p99 ms': r.p99, errors: r.errors, non2xx: r.non2xx, total: r.requests })));
  }
} finally {
  fs.rmSync(scratch, { recursive: true, force: true });
}
