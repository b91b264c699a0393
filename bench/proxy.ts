// npm run bench:proxy — the built-in proxy engine against a fake OpenAI-format upstream on
// loopback, side by side with calling that upstream directly, in one run (issue 6).
//
// Round 1, an upstream that answers at once (what the proxy itself costs): latency p50/p99 and
// time to first byte from a sequential keep-alive client (µs precision; direct and proxied rounds
// alternate so machine load hits both alike), requests per second from autocannon, and the CPU
// the proxy process spends per request. A bare node:http pipe proxy is measured beside them as the
// ceiling of any Node proxy on the machine.
// Round 2, the same upstream answering after BENCH_UPSTREAM_DELAY_MS (default 50; no real model
// API answers faster): requests per second direct and through the engine at the same connection
// count, which is what the throughput target means for real traffic.
// BENCH_PROXY_SECONDS (default 10) sets each throughput run, BENCH_PROXY_REQUESTS (default 2000)
// the latency samples per row.
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs/promises';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { engineCommand } from '../main/engines/proxy-engine/command.js';
import { findFreePort } from '../main/infra/port-probe.js';
import { load, printTable } from './lib.js';
import { processCpuMicros } from './process-cpu.js';
import { compareCodex } from './proxy-codex.js';
import { compareProxies } from './proxy-compare.js';

// The engine runs from dist/ (built by the npm script first) with its V8 flags, as users run it:
// through tsx it would also carry the loader's hook thread and its compile-time helpers.
process.env.SWITCHBOARD_CHILDREN_FROM_DIST = '1';

const seconds = Number(process.env.BENCH_PROXY_SECONDS ?? 10);
const samples = Number(process.env.BENCH_PROXY_REQUESTS ?? 2000);
const delayMs = Number(process.env.BENCH_UPSTREAM_DELAY_MS ?? 50);
const CONNECTIONS = 20;
const ROUNDS = 4;
const KEY = 'sk-bench-proxy-key-0123456789';
/** One keep-alive connection per target host for the sequential latency client. */
const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });

interface Target {
  name: string;
  url: string;
  body: string;
  headers: Record<string, string>;
  /** The process the client talks to, whose CPU per request is reported (none for direct rows). */
  proxyPid?: number;
}

interface Throughput {
  rps: number;
  p50: number;
  p99: number;
  /** µs of proxy CPU per request, when the platform can tell. */
  cpuPerRequest?: number;
}

const chatBody = (model: string, stream: boolean) => JSON.stringify({ model, stream, messages: [{ role: 'user', content: 'Say hello.' }], max_tokens: 32 });
const messagesBody = (model: string, stream: boolean) => JSON.stringify({ model, stream, max_tokens: 32, messages: [{ role: 'user', content: 'Say hello.' }] });

// The comparison with claude-code-router and the pipe proxy (issue 19) runs first;
// BENCH_PROXY_ONLY=compare stops after it, =rounds skips it.
// The codex executor's row (issue 29) follows; BENCH_PROXY_ONLY=codex runs it alone.
const only = process.env.BENCH_PROXY_ONLY;
if (only !== 'rounds' && only !== 'codex') {
  await compareProxies({
    seconds: Number(process.env.BENCH_COMPARE_SECONDS ?? 5),
    rounds: Number(process.env.BENCH_COMPARE_ROUNDS ?? 3),
    connections: Number(process.env.BENCH_COMPARE_CONNECTIONS ?? 10),
    samples: Number(process.env.BENCH_COMPARE_REQUESTS ?? 300),
    ...(process.env.BENCH_COMPARE_PROFILE_DIR ? { profileDir: process.env.BENCH_COMPARE_PROFILE_DIR } : {}),
  });
  if (only === 'compare') process.exit(0);
}
if (only !== 'rounds') {
  await compareCodex({
    seconds: Number(process.env.BENCH_CODEX_SECONDS ?? 5),
    rounds: Number(process.env.BENCH_CODEX_ROUNDS ?? 4),
    connections: Number(process.env.BENCH_CODEX_CONNECTIONS ?? 10),
    bytes: Number(process.env.BENCH_CODEX_BYTES ?? 60 * 1024),
  });
  if (only === 'codex') process.exit(0);
}

const root = await fs.mkdtemp(path.join(os.tmpdir(), 'switchboard-bench-proxy-'));
const children: ChildProcess[] = [];
try {
  const fake = (args: string[]) => startChild(process.execPath, ['--import', 'tsx', 'bench/fake-llm-server.ts', ...args], {}, /listening (\d+)/);
  const [fast, slow] = await Promise.all([fake([]), fake(['--delay-ms', String(delayMs)])]);
  const enginePort = await findFreePort();
  const config = path.join(root, 'config.yaml');
  await fs.writeFile(
    config,
    `server: { port: ${enginePort}, host: 127.0.0.1 }\nauth: { api_key: ${KEY} }\nupstreams:\n` +
      `  - { name: fake, format: openai, base_url: "http://127.0.0.1:${fast.port}/v1", api_key: sk-upstream, models: [bench-model] }\n` +
      `  - { name: slow, format: openai, base_url: "http://127.0.0.1:${slow.port}/v1", api_key: sk-upstream, models: [bench-model-slow] }\n`,
  );
  const entry = engineCommand(config);
  const engine = await startChild(entry.command, entry.args, { ...entry.env, WRITABLE_PATH: root, SWITCHBOARD_ENGINE_LOG_LEVEL: 'warn' }, /listening on http:\/\/127\.0\.0\.1:(\d+)/);
  const pipe = await startChild(process.execPath, ['bench/pipe-proxy.mjs', `http://127.0.0.1:${fast.port}`], {}, /listening (\d+)/);

  const json = { 'content-type': 'application/json' };
  const upstreamAuth = { ...json, authorization: 'Bearer sk-upstream' };
  const engineUrl = `http://127.0.0.1:${engine.port}`;
  const targetsFor = (stream: boolean, upstreamPort: number, model: string, withPipe: boolean): Target[] => [
    { name: 'direct', url: `http://127.0.0.1:${upstreamPort}/v1/chat/completions`, body: chatBody(model, stream), headers: upstreamAuth },
    { name: 'engine (OpenAI passthrough)', url: `${engineUrl}/v1/chat/completions`, body: chatBody(model, stream), headers: { ...json, authorization: `Bearer ${KEY}` }, proxyPid: engine.pid },
    { name: 'engine (Anthropic client, translated)', url: `${engineUrl}/v1/messages`, body: messagesBody(model, stream), headers: { ...json, 'x-api-key': KEY }, proxyPid: engine.pid },
    ...(withPipe ? [{ name: 'ceiling: bare node:http pipe proxy', url: `http://127.0.0.1:${pipe.port}/v1/chat/completions`, body: chatBody(model, stream), headers: upstreamAuth, proxyPid: pipe.pid }] : []),
  ];
  const kinds = [false, true].map((stream) => ({ stream, kind: stream ? 'streaming' : 'non-streaming' }));

  const rows: Array<Record<string, string | number>> = [];
  const verdicts: string[] = [];
  const zeroShare = new Map<string, number>();
  for (const { stream, kind } of kinds) {
    const targets = targetsFor(stream, fast.port, 'bench-model', true);
    const [direct, passthrough, translated, pipeTarget] = targets as [Target, Target, Target, Target];
    const timings = new Map<Target, { total: number[]; ttfb: number[] }>(targets.map((t) => [t, { total: [], ttfb: [] }]));
    for (const t of targets) await sequential(t, 200); // warm-up: connections, JIT
    for (let round = 0; round < ROUNDS; round++) {
      for (const t of targets) {
        const r = await sequential(t, Math.ceil(samples / ROUNDS));
        timings.get(t)!.total.push(...r.total);
        timings.get(t)!.ttfb.push(...r.ttfb);
      }
    }
    const tp = new Map<Target, Throughput>();
    for (const t of targets) tp.set(t, await throughput(`${kind} ${t.name}`, t));
    for (const t of targets) {
      const { total, ttfb } = timings.get(t)!;
      const r = tp.get(t)!;
      rows.push({ kind, target: t.name, 'p50 ms': ms(pct(total, 50)), 'p99 ms': ms(pct(total, 99)), 'TTFB p50 ms': ms(pct(ttfb, 50)), 'TTFB p99 ms': ms(pct(ttfb, 99)), 'req/s': r.rps, 'vs direct': share(r, tp.get(direct)!), 'proxy CPU µs/req': cpu(r) });
    }
    const d = timings.get(direct)!;
    const ceiling = tp.get(pipeTarget)!.rps / tp.get(direct)!.rps;
    for (const t of [passthrough, translated]) {
      const p = timings.get(t)!;
      const added50 = pct(p.total, 50) - pct(d.total, 50);
      const added99 = pct(p.total, 99) - pct(d.total, 99);
      const ttfb = pct(p.ttfb, 50) - pct(d.ttfb, 50);
      const ratio = tp.get(t)!.rps / tp.get(direct)!.rps;
      zeroShare.set(`${kind} ${t.name}`, ratio);
      const zero = `throughput at zero upstream latency ${percent(ratio)} of direct (${percent(ratio / ceiling)} of the pipe-proxy ceiling, which is ${percent(ceiling)})`;
      verdicts.push(
        kind === 'non-streaming'
          ? `${kind}, ${t.name}: added p50 ${ms(added50)} ms (target ≤ 1) ${ok(added50 <= 1)}, added p99 ${ms(added99)} ms (≤ 5) ${ok(added99 <= 5)}, ${zero}`
          : `${kind}, ${t.name}: TTFB overhead p50 ${ms(ttfb)} ms (target ≤ 2) ${ok(ttfb <= 2)}, ${zero}`,
      );
    }
  }

  const delayedRows: Array<Record<string, string | number>> = [];
  const throughputVerdicts: string[] = [];
  for (const { stream, kind } of kinds) {
    const targets = targetsFor(stream, slow.port, 'bench-model-slow', false);
    const [direct, passthrough, translated] = targets as [Target, Target, Target];
    for (const t of targets) await sequential(t, 20); // warm-up: connections to the slow upstream
    const tp = new Map<Target, Throughput>();
    for (const t of targets) tp.set(t, await throughput(`${kind} ${t.name} (${delayMs} ms upstream)`, t));
    for (const t of targets) {
      const r = tp.get(t)!;
      delayedRows.push({ kind, target: t.name, 'req/s': r.rps, 'vs direct': share(r, tp.get(direct)!), 'p50 ms': r.p50, 'p99 ms': r.p99, 'proxy CPU µs/req': cpu(r) });
    }
    for (const t of [passthrough, translated]) {
      const ratio = tp.get(t)!.rps / tp.get(direct)!.rps;
      throughputVerdicts.push(`${kind}, ${t.name}: ${percent(ratio)} of direct with a ${delayMs} ms upstream (≥ 80%) ${ok(ratio >= 0.8)}; ${percent(zeroShare.get(`${kind} ${t.name}`)!)} at zero upstream latency (≥ 80%) ${ok(zeroShare.get(`${kind} ${t.name}`)! >= 0.8)}`);
    }
  }

  const machine = `${os.cpus().length} CPUs, load average ${os.loadavg().map((l) => l.toFixed(2)).join(' ')}`;
  console.log(`\nRound 1: upstream answers at once. ${samples} sequential requests per row for latency; ${seconds} s at ${CONNECTIONS} connections for req/s (${machine})\n`);
  printTable(rows);
  console.log(`\nRound 2: upstream answers after ${delayMs} ms (stream: first chunk after ${delayMs} ms). ${seconds} s at ${CONNECTIONS} connections; autocannon latency in whole ms\n`);
  printTable(delayedRows);
  console.log('');
  for (const v of verdicts) console.log(v);
  console.log(`\nThroughput target (engine ≥ 80% of direct in the same run):`);
  for (const v of throughputVerdicts) console.log(`  ${v}`);
  console.log(
    `  At zero upstream latency the client, the proxy and the upstream share ${os.cpus().length} cores and the proxy's CPU per request decides the ratio;` +
      ` with a real model's latency the connections wait on the upstream and the proxy's CPU is a small share of each request.`,
  );
} finally {
  for (const child of children) child.kill('SIGTERM');
  await Promise.all(children.map((c) => (c.exitCode === null && c.signalCode === null ? new Promise((r) => c.once('exit', r)) : null)));
  await fs.rm(root, { recursive: true, force: true });
}

/**
 * autocannon at CONNECTIONS for `seconds`, with the proxy process's CPU time over the same span.
 * A one-second run first opens the connections and lets V8 settle on the concurrent path, so the
 * first target of a round does not pay that alone.
 */
async function throughput(name: string, t: Target): Promise<Throughput> {
  await load(`${name} (warm-up)`, { url: t.url, method: 'POST', body: t.body, headers: t.headers, connections: CONNECTIONS, duration: 1 });
  const before = processCpuMicros(t.proxyPid);
  const r = await load(name, { url: t.url, method: 'POST', body: t.body, headers: t.headers, connections: CONNECTIONS, duration: seconds });
  const after = processCpuMicros(t.proxyPid);
  if (r.errors || r.non2xx) throw new Error(`${name}: ${r.errors} errors, ${r.non2xx} non-2xx`);
  const out: Throughput = { rps: r.rps, p50: r.p50, p99: r.p99 };
  if (before !== undefined && after !== undefined && r.requests > 0) out.cpuPerRequest = (after - before) / r.requests;
  return out;
}

function startChild(command: string, args: string[], env: NodeJS.ProcessEnv, ready: RegExp): Promise<{ port: number; pid: number | undefined }> {
  const child = spawn(command, args, { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'inherit'] });
  children.push(child);
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (c: Buffer) => {
      out += c.toString();
      const m = ready.exec(out);
      if (m) resolve({ port: Number(m[1]), pid: child.pid });
    });
    child.once('exit', (code) => reject(new Error(`${command} ${args.join(' ')} exited ${code}: ${out}`)));
  });
}

/** `n` requests one after another on one keep-alive connection; total time and time to first body byte, in ms. */
async function sequential(t: Target, n: number): Promise<{ total: number[]; ttfb: number[] }> {
  const total: number[] = [];
  const ttfb: number[] = [];
  for (let i = 0; i < n; i++) {
    const r = await once(t);
    total.push(r.total);
    ttfb.push(r.ttfb);
  }
  return { total, ttfb };
}

function once(t: Target): Promise<{ total: number; ttfb: number }> {
  return new Promise((resolve, reject) => {
    const start = performance.now();
    let first = 0;
    const req = http.request(t.url, { method: 'POST', agent, headers: { ...t.headers, 'content-length': Buffer.byteLength(t.body) } }, (res) => {
      if (res.statusCode !== 200) reject(new Error(`${t.name}: status ${res.statusCode}`));
      res.on('data', () => {
        if (first === 0) first = performance.now();
      });
      res.on('end', () => resolve({ total: performance.now() - start, ttfb: first - start }));
    });
    req.once('error', reject);
    req.end(t.body);
  });
}

function pct(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

function share(r: Throughput, direct: Throughput): string {
  return percent(r.rps / direct.rps);
}

function percent(ratio: number): string {
  return `${Math.round(ratio * 100)}%`;
}

function cpu(r: Throughput): string {
  return r.cpuPerRequest === undefined ? '-' : r.cpuPerRequest.toFixed(0);
}

function ms(value: number): string {
  return value.toFixed(3);
}

function ok(pass: boolean): string {
  return pass ? 'PASS' : 'MISS';
}
