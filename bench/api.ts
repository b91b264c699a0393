// npm run bench:api — load on cached usage endpoints, settings and profile reads at 200 connections
// on loopback, and concurrent profile writes (issue 9), against the built app as users run it. The
// baseline is plain node:http answering the same summary body: the ceiling of any Node server on
// this machine. The machine is a noisy 2-core VM, so each route runs in BENCH_API_ROUNDS rounds,
// interleaved with the baseline's, and its percentiles come from the merged histograms of its rounds.
// With wrk installed, the cached reads and the baseline run once more with each connection pausing
// between requests (about 10 000 req/s in all): latency at a load that does not saturate the server.
// BENCH_API_SECONDS (default 30) is each route's total; BENCH_API_TOOL=autocannon forces autocannon.
import { execFileSync } from 'node:child_process';
import os from 'node:os';
import path from 'node:path';
import { autocannonTool, printTable, serveBuilt, startBaseline, type LoadSeries, type LoadTool, type Round } from './lib.js';
import { mainThreadCpuMicros } from './process-cpu.js';
import { h2loadOnPath, h2loadTool } from './h2load.js';
import { wrkOnPath, wrkTool } from './wrk.js';

const seconds = positiveInt('BENCH_API_SECONDS', 30);
const rounds = positiveInt('BENCH_API_ROUNDS', 3);
const perRound = Math.max(1, Math.round(seconds / rounds));
const connections = 200;
/** Mean wait of each connection between answer and next request in the paced rows: 200 / 20 ms ≈ 10 000 req/s. */
const THINK_MS = 20;
const routes = ['/api/usage/summary', '/api/usage/daily', '/api/usage/models', '/api/settings/bench', '/api/profiles'];

interface Target {
  name: string;
  url: string;
  /** The server process, whose main-thread CPU time each run is charged. */
  pid: number;
}

interface Row {
  name: string;
  series: LoadSeries;
  runs: Array<Round & { cpuMicros: number | undefined }>;
}

const loadStart = os.loadavg();
const tool = chooseTool();
const app = await serveBuilt(async ({ agentDir }) => {
  execFileSync(process.execPath, [path.resolve('scripts/gen-usage.mjs'), '--out', agentDir, '--bytes', '20MB', '--seed', '3', '--quiet']);
});
let bare: Awaited<ReturnType<typeof startBaseline>> | undefined;
try {
  await putSettings({ env: { PROVIDER_BASE_URL: 'http://127.0.0.1:8317', PROVIDER_AUTH_TOKEN: 'sk-bench-token', PROVIDER_MODEL: 'claude-sonnet-4-5' } });
  bare = await startBaseline(await (await fetch(`${app.url}/api/usage/summary`)).text());
  const targets: Target[] = [
    { name: 'baseline: node:http, same body', url: bare.url, pid: bare.pid },
    ...routes.map((p) => ({ name: `GET ${p}`, url: app.url + p, pid: app.child.pid! })),
  ];
  for (const t of targets) await tool.series(t.url).run(1); // warm-up (and fills the caches of daily and models), not counted
  const rows = await interleaved(tool, targets);
  rows.push(await profileWrites());
  // The same cached reads at a load the server is not saturated by (wrk's random pauses: the rate
  // limits of h2load and autocannon send each connection's requests in step, in bursts).
  const paced = wrkOnPath() ? await interleaved(wrkTool(connections, THINK_MS), targets.slice(0, 4)) : [];
  const loadEnd = os.loadavg();

  const base = rows[0]!;
  console.log(
    `tool: ${tool.name}${tool.name === 'autocannon' ? '' : ' (PUT row: autocannon)'}, connections: ${connections} (PUT: 20), ` +
      `${perRound} s per round × ${rounds} rounds (+1 s warm-up per target), loadavg at start ${fmtLoad(loadStart)}, at end ${fmtLoad(loadEnd)}`,
  );
  const table = rows.map((row) => tableRow(row, row.name.startsWith('PUT') ? undefined : base));
  printTable(table);
  if (paced.length > 0) {
    console.log(`\nwrk: the cached reads again at ${connections} connections, each waiting a random 0–${2 * THINK_MS} ms after each answer (about ${Math.round(connections / THINK_MS)} 000 req/s in all):`);
    const pacedTable = paced.map((row) => tableRow(row, paced[0]!));
    printTable(pacedTable);
    table.push(...pacedTable);
  }
  const failing = table.filter((r) => r.errors !== 0 || r.non2xx !== 0).map((r) => r.route);
  if (failing.length > 0) {
    console.error(`errors or non-2xx (target: none) in: ${failing.join(', ')}`);
    process.exitCode = 1;
  }
} finally {
  await bare?.stop();
  await app.stop();
}

/** h2load for the GET rows when it is installed: one C thread, no event loop of its own in the latencies it records. */
function chooseTool(): LoadTool {
  const wanted = process.env.BENCH_API_TOOL;
  if (wanted !== undefined && wanted !== 'h2load' && wanted !== 'autocannon') throw new Error(`BENCH_API_TOOL must be h2load or autocannon, not ${wanted}`);
  if (wanted === 'autocannon') return autocannonTool(connections);
  if (h2loadOnPath()) return h2loadTool(connections);
  if (wanted === 'h2load') throw new Error('BENCH_API_TOOL=h2load but h2load is not on PATH (apt-get install -y nghttp2-client)');
  console.log('h2load not found on PATH: all rows use autocannon, which runs in this Node process and counts its own event loop in the latencies; install h2load: apt-get install -y nghttp2-client');
  return autocannonTool(connections);
}

function putSettings(settings: unknown): Promise<Response> {
  return fetch(`${app.url}/api/settings/bench`, { method: 'PUT', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ settings }) });
}

/** Every target once per round, for `rounds` rounds, so that machine noise hits all of them alike. */
async function interleaved(loadTool: LoadTool, targets: Target[]): Promise<Row[]> {
  const rows: Row[] = targets.map((t) => ({ name: t.name, series: loadTool.series(t.url), runs: [] }));
  for (let r = 0; r < rounds; r++) {
    for (const [i, t] of targets.entries()) rows[i]!.runs.push(await timed(rows[i]!.series, t.pid, perRound));
  }
  return rows;
}

async function timed(series: LoadSeries, pid: number, runSeconds: number): Promise<Row['runs'][number]> {
  const before = mainThreadCpuMicros(pid);
  const round = await series.run(runSeconds);
  const after = mainThreadCpuMicros(pid);
  return { ...round, cpuMicros: before === undefined || after === undefined ? undefined : after - before };
}

/** Concurrent writes with a different body each time; autocannon sets a body per client. */
async function profileWrites(): Promise<Row> {
  const url = `${app.url}/api/settings/bench`;
  let n = 0;
  const writes = autocannonTool(20, {
    method: 'PUT',
    headers: { 'content-type': 'application/json' },
    setupClient: (client) => {
      client.setBody(JSON.stringify({ settings: { env: { PROVIDER_MODEL: `m-${n++}` } } }));
    },
  });
  const row: Row = { name: 'PUT /api/settings/bench (20 conn, autocannon)', series: writes.series(url), runs: [] };
  row.runs.push(await timed(row.series, app.child.pid!, Math.max(5, Math.round(seconds / 3))));
  return row;
}

/** A row and, for the GET rows, its ratios to the baseline row of the same run. */
function tableRow(row: Row, base: Row | undefined) {
  const requests = sum(row.runs.map((r) => r.requests));
  const rps = requestsPerSecond(row);
  const { p50, p99 } = row.series.percentiles();
  const p99s = row.runs.map((r) => r.p99);
  const cpu = row.runs.every((r) => r.cpuMicros !== undefined) ? sum(row.runs.map((r) => r.cpuMicros!)) / requests : undefined;
  return {
    route: row.name,
    'req/s': Math.round(rps),
    'vs baseline': base === undefined ? '' : `${Math.round((100 * rps) / requestsPerSecond(base))}%`,
    'p50 ms': ms(p50),
    'p99 ms': ms(p99),
    'p99 / baseline p99': base === undefined ? '' : (p99 / base.series.percentiles().p99).toFixed(2),
    'p99 range ms': `${ms(Math.min(...p99s))}–${ms(Math.max(...p99s))}`,
    errors: sum(row.runs.map((r) => r.errors)),
    non2xx: sum(row.runs.map((r) => r.non2xx)),
    total: requests,
    'cpu µs/req': cpu === undefined ? 'n/a' : cpu.toFixed(1),
  };
}

function requestsPerSecond(row: Row): number {
  return sum(row.runs.map((r) => r.requests)) / sum(row.runs.map((r) => r.seconds));
}

function sum(values: number[]): number {
  return values.reduce((a, b) => a + b, 0);
}

/** h2load measures in µs, autocannon in whole ms: shows each at its own resolution. */
function ms(value: number): number {
  return Number(value.toFixed(2));
}

function fmtLoad(avg: number[]): string {
  return avg.map((v) => v.toFixed(2)).join(' ');
}

function positiveInt(name: string, fallback: number): number {
  const value = Number(process.env[name] ?? fallback);
  if (!Number.isInteger(value) || value < 1) throw new Error(`${name} must be a positive whole number`);
  return value;
}
