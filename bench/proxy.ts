// npm run bench:proxy — the built-in proxy engine against a fake OpenAI-format upstream on
// loopback, side by side with calling that upstream directly, in one run (issue 6):
// latency p50/p99 and time to first byte from a sequential keep-alive client (µs precision;
// direct and proxied rounds alternate so machine load hits both alike), and requests per
// second from autocannon. BENCH_PROXY_SECONDS (default 10) sets each throughput run,
// BENCH_PROXY_REQUESTS (default 2000) the latency samples per row. A bare node:http pipe proxy
// is measured beside them as the ceiling of any Node proxy on the machine.
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs/promises';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { nodeEntry } from '../main/infra/node-entry.js';
import { findFreePort } from '../main/infra/port-probe.js';
import { load, printTable } from './lib.js';

const seconds = Number(process.env.BENCH_PROXY_SECONDS ?? 10);
const samples = Number(process.env.BENCH_PROXY_REQUESTS ?? 2000);
const ROUNDS = 4;
const KEY = 'sk-bench-proxy-key-0123456789';
/** One keep-alive connection per target host for the sequential latency client. */
const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });

interface Target {
  name: string;
  url: string;
  body: string;
  headers: Record<string, string>;
}

const chatBody = (stream: boolean) => JSON.stringify({ model: 'bench-model', stream, messages: [{ role: 'user', content: 'Say hello.' }], max_tokens: 32 });
const messagesBody = (stream: boolean) => JSON.stringify({ model: 'bench-model', stream, max_tokens: 32, messages: [{ role: 'user', content: 'Say hello.' }] });

const root = await fs.mkdtemp(path.join(os.tmpdir(), 'switchboard-bench-proxy-'));
const children: ChildProcess[] = [];
try {
  const upstreamPort = await startChild(process.execPath, ['--import', 'tsx', 'bench/fake-llm-server.ts'], {}, /listening (\d+)/);
  const enginePort = await findFreePort();
  const config = path.join(root, 'config.yaml');
  await fs.writeFile(
    config,
    `server: { port: ${enginePort}, host: 127.0.0.1 }\nauth: { api_key: ${KEY} }\nupstreams:\n  - { name: fake, format: openai, base_url: "http://127.0.0.1:${upstreamPort}/v1", api_key: sk-upstream, models: [bench-model] }\n`,
  );
  const entry = nodeEntry('main/engines/proxy-engine/main');
  await startChild(entry.command, [...entry.args, '--config', config], { ...entry.env, WRITABLE_PATH: root, SWITCHBOARD_ENGINE_LOG_LEVEL: 'warn' }, /listening on http:\/\/127\.0\.0\.1:(\d+)/);

  const upstream = `http://127.0.0.1:${upstreamPort}`;
  const pipePort = await startChild(process.execPath, ['bench/pipe-proxy.mjs', upstream], {}, /listening (\d+)/);
  const engine = `http://127.0.0.1:${enginePort}`;
  const json = { 'content-type': 'application/json' };
  const auth = { ...json, authorization: `Bearer ${KEY}` };
  const pairs: Array<[string, Target, Target, Target, Target]> = [false, true].map((stream) => [
    stream ? 'streaming' : 'non-streaming',
    { name: 'direct', url: `${upstream}/v1/chat/completions`, body: chatBody(stream), headers: { ...json, authorization: 'Bearer sk-upstream' } },
    { name: 'engine (OpenAI passthrough)', url: `${engine}/v1/chat/completions`, body: chatBody(stream), headers: auth },
    { name: 'engine (Anthropic client, translated)', url: `${engine}/v1/messages`, body: messagesBody(stream), headers: { ...json, 'x-api-key': KEY } },
    { name: 'ceiling: bare node:http pipe proxy', url: `http://127.0.0.1:${pipePort}/v1/chat/completions`, body: chatBody(stream), headers: { ...json, authorization: 'Bearer sk-upstream' } },
  ]);

  const rows: Array<Record<string, string | number>> = [];
  const verdicts: string[] = [];
  for (const [kind, direct, passthrough, translated, pipe] of pairs) {
    const targets = [direct, passthrough, translated, pipe];
    const timings = new Map<Target, { total: number[]; ttfb: number[] }>(targets.map((t) => [t, { total: [], ttfb: [] }]));
    for (const t of targets) await sequential(t, 200); // warm-up: connections, JIT
    for (let round = 0; round < ROUNDS; round++) {
      for (const t of targets) {
        const r = await sequential(t, Math.ceil(samples / ROUNDS));
        timings.get(t)!.total.push(...r.total);
        timings.get(t)!.ttfb.push(...r.ttfb);
      }
    }
    const rps = new Map<Target, number>();
    for (const t of targets) {
      const r = await load(`${kind} ${t.name}`, { url: t.url, method: 'POST', body: t.body, headers: t.headers, connections: 20, duration: seconds });
      if (r.errors || r.non2xx) throw new Error(`${kind} ${t.name}: ${r.errors} errors, ${r.non2xx} non-2xx`);
      rps.set(t, r.rps);
    }
    for (const t of targets) {
      const { total, ttfb } = timings.get(t)!;
      rows.push({ kind, target: t.name, 'p50 ms': ms(pct(total, 50)), 'p99 ms': ms(pct(total, 99)), 'TTFB p50 ms': ms(pct(ttfb, 50)), 'TTFB p99 ms': ms(pct(ttfb, 99)), 'req/s': rps.get(t)!, 'vs direct': `${Math.round((100 * rps.get(t)!) / rps.get(direct)!)}%` });
    }
    const d = timings.get(direct)!;
    for (const t of [passthrough, translated]) {
      const p = timings.get(t)!;
      const added50 = pct(p.total, 50) - pct(d.total, 50);
      const added99 = pct(p.total, 99) - pct(d.total, 99);
      const ttfb = pct(p.ttfb, 50) - pct(d.ttfb, 50);
      const share = rps.get(t)! / rps.get(direct)!;
      verdicts.push(
        kind === 'non-streaming'
          ? `${kind}, ${t.name}: added p50 ${ms(added50)} ms (target ≤ 1) ${ok(added50 <= 1)}, added p99 ${ms(added99)} ms (≤ 5) ${ok(added99 <= 5)}, throughput ${Math.round(share * 100)}% of direct (≥ 80%) ${ok(share >= 0.8)}`
          : `${kind}, ${t.name}: TTFB overhead p50 ${ms(ttfb)} ms (target ≤ 2) ${ok(ttfb <= 2)}, throughput ${Math.round(share * 100)}% of direct (≥ 80%) ${ok(share >= 0.8)}`,
      );
    }
  }
  console.log(`\nProxy engine vs direct, ${samples} sequential requests per row for latency, ${seconds} s at 20 connections for req/s (${os.cpus().length} CPUs, load ${os.loadavg()[0]!.toFixed(2)})\n`);
  printTable(rows);
  console.log('');
  for (const v of verdicts) console.log(v);
} finally {
  for (const child of children) child.kill('SIGTERM');
  await Promise.all(children.map((c) => (c.exitCode === null && c.signalCode === null ? new Promise((r) => c.once('exit', r)) : null)));
  await fs.rm(root, { recursive: true, force: true });
}

function startChild(command: string, args: string[], env: NodeJS.ProcessEnv, ready: RegExp): Promise<number> {
  const child = spawn(command, args, { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'inherit'] });
  children.push(child);
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (c: Buffer) => {
      out += c.toString();
      const m = ready.exec(out);
      if (m) resolve(Number(m[1]));
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

function ms(value: number): string {
  return value.toFixed(3);
}

function ok(pass: boolean): string {
  return pass ? 'PASS' : 'MISS';
}
