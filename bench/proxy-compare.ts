// The comparison round of npm run bench:proxy (issue 19): a Claude Code–shaped 20 KB streaming
// request through the engine (passthrough to an Anthropic-format upstream, and translated to an
// OpenAI-format one), claude-code-router 2.0.0 (translating, the way its users run it) and a bare
// node:http pipe proxy (the baseline issue 19 set its targets against), and the same pipe on undici
// (the engine's HTTP client: the floor for the engine's own work), all against one local fake upstream.
// Rounds are interleaved (every target once per round, BENCH_COMPARE_ROUNDS rounds of
// BENCH_COMPARE_SECONDS each) so machine load hits every target alike; the answer is ratios from
// the same run: requests/s, proxy CPU µs per request, and latency added over calling the upstream.
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs/promises';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { engineCommand } from '../main/engines/proxy-engine/command.js';
import { findFreePort } from '../main/infra/port-probe.js';
import { CCR_KEY, configureCcr, installCcr } from './ccr.js';
import { claudeCodeBody } from './claude-code-body.js';
import { load, printTable } from './lib.js';
import { processCpuMicros } from './process-cpu.js';

const KEY = 'sk-bench-compare-key-0123456789';

interface Target {
  name: string;
  url: string;
  body: string;
  headers: Record<string, string>;
  pid?: number;
  /** The direct call whose latency this one adds to. */
  direct?: Target;
}

interface Tally {
  requests: number;
  seconds: number;
  cpu: number;
  cpuKnown: boolean;
  latency: number[];
  /** Per round: CPU µs per request (NaN when unknown) and requests per second. */
  roundCpu: number[];
  roundRps: number[];
}

export async function compareProxies(options: { seconds: number; rounds: number; connections: number; samples: number; profileDir?: string }): Promise<void> {
  const root = await fs.mkdtemp(path.join(os.tmpdir(), 'switchboard-bench-compare-'));
  const children: ChildProcess[] = [];
  const start = (command: string, args: string[], env: NodeJS.ProcessEnv, ready: RegExp | (() => Promise<boolean>)) => startChild(children, command, args, env, ready);
  try {
    const cliPromise = installCcr(path.join(root, 'ccr'));
    const fake = await start(process.execPath, ['--import', 'tsx', 'bench/fake-llm-server.ts'], {}, /listening (\d+)/);
    const upstream = `http://127.0.0.1:${fake.port}`;
    const enginePort = await findFreePort();
    const config = path.join(root, 'config.yaml');
    await fs.writeFile(
      config,
      `server: { port: ${enginePort}, host: 127.0.0.1 }\nauth: { api_key: ${KEY} }\nupstreams:\n` +
        `  - { name: an, format: anthropic, base_url: "${upstream}", api_key: sk-upstream, models: [cc-pass] }\n` +
        `  - { name: oa, format: openai, base_url: "${upstream}/v1", api_key: sk-upstream, models: [cc-trans] }\n`,
    );
    const entry = engineCommand(config);
    const profile = options.profileDir ? [`--cpu-prof`, `--cpu-prof-dir=${options.profileDir}`] : [];
    const engine = await start(entry.command, [...profile, ...entry.args], { ...entry.env, WRITABLE_PATH: root, SWITCHBOARD_ENGINE_LOG_LEVEL: 'warn' }, /listening on http:\/\/127\.0\.0\.1:(\d+)/);
    const pipe = await start(process.execPath, ['bench/pipe-proxy.mjs', upstream], {}, /listening (\d+)/);
    const upipe = await start(process.execPath, ['bench/pipe-proxy-undici.mjs', upstream], {}, /listening (\d+)/);
    const cli = await cliPromise;
    const ccrHome = path.join(root, 'ccr-home');
    const ccrPort = await configureCcr(ccrHome, `${upstream}/v1/chat/completions`, 'bench-model');
    const ccr = { ...(await start(process.execPath, [cli, 'start'], { HOME: ccrHome, USERPROFILE: ccrHome }, () => answers(`http://127.0.0.1:${ccrPort}/`))), port: ccrPort };

    const json = { 'content-type': 'application/json' };
    const up = { ...json, 'x-api-key': 'sk-upstream', authorization: 'Bearer sk-upstream' };
    const directAnthropic: Target = { name: 'direct: upstream /v1/messages', url: `${upstream}/v1/messages`, body: claudeCodeBody('bench-model'), headers: up };
    const directOpenAI: Target = { name: 'direct: upstream /v1/chat/completions', url: `${upstream}/v1/chat/completions`, body: claudeCodeBody('bench-model'), headers: up };
    const pipePass: Target = { name: 'pipe proxy, Anthropic upstream', url: `http://127.0.0.1:${pipe.port}/v1/messages`, body: directAnthropic.body, headers: up, pid: pipe.pid, direct: directAnthropic };
    const pipeTrans: Target = { name: 'pipe proxy, OpenAI upstream', url: `http://127.0.0.1:${pipe.port}/v1/chat/completions`, body: directOpenAI.body, headers: up, pid: pipe.pid, direct: directOpenAI };
    const upipePass: Target = { name: 'pipe proxy on undici, Anthropic upstream', url: `http://127.0.0.1:${upipe.port}/v1/messages`, body: directAnthropic.body, headers: up, pid: upipe.pid, direct: directAnthropic };
    const upipeTrans: Target = { name: 'pipe proxy on undici, OpenAI upstream', url: `http://127.0.0.1:${upipe.port}/v1/chat/completions`, body: directOpenAI.body, headers: up, pid: upipe.pid, direct: directOpenAI };
    const enginePass: Target = { name: 'engine, passthrough', url: `http://127.0.0.1:${engine.port}/v1/messages`, body: claudeCodeBody('cc-pass'), headers: { ...json, 'x-api-key': KEY }, pid: engine.pid, direct: directAnthropic };
    const engineTrans: Target = { name: 'engine, translated', url: `http://127.0.0.1:${engine.port}/v1/messages`, body: claudeCodeBody('cc-trans'), headers: { ...json, 'x-api-key': KEY }, pid: engine.pid, direct: directOpenAI };
    const ccrTrans: Target = { name: 'claude-code-router 2.0.0, translated', url: `http://127.0.0.1:${ccr.port}/v1/messages`, body: claudeCodeBody('claude-sonnet-4-5'), headers: { ...json, 'x-api-key': CCR_KEY }, pid: ccr.pid, direct: directOpenAI };
    const targets = [directAnthropic, directOpenAI, pipePass, pipeTrans, upipePass, upipeTrans, enginePass, engineTrans, ccrTrans];

    const tallies = new Map<Target, Tally>(targets.map((t) => [t, { requests: 0, seconds: 0, cpu: 0, cpuKnown: true, latency: [], roundCpu: [], roundRps: [] }]));
    for (const t of targets) await sequential(t, 20); // connections, JIT
    for (let round = 0; round < options.rounds; round++) {
      for (const t of targets) {
        const tally = tallies.get(t)!;
        tally.latency.push(...(await sequential(t, Math.ceil(options.samples / options.rounds))));
        const before = processCpuMicros(t.pid);
        const r = await load(t.name, { url: t.url, method: 'POST', body: t.body, headers: t.headers, connections: options.connections, duration: options.seconds });
        const after = processCpuMicros(t.pid);
        if (r.errors || r.non2xx) throw new Error(`${t.name}: ${r.errors} errors, ${r.non2xx} non-2xx`);
        tally.requests += r.requests;
        tally.seconds += options.seconds;
        if (before === undefined || after === undefined) tally.cpuKnown = false;
        else tally.cpu += after - before;
        tally.roundCpu.push(before === undefined || after === undefined ? NaN : (after - before) / r.requests);
        tally.roundRps.push(r.requests / options.seconds);
      }
    }

    const rps = (t: Target) => tallies.get(t)!.requests / tallies.get(t)!.seconds;
    const cpu = (t: Target) => (tallies.get(t)!.cpuKnown && t.pid !== undefined ? tallies.get(t)!.cpu / tallies.get(t)!.requests : NaN);
    const p50 = (t: Target) => pct(tallies.get(t)!.latency, 50);
    const added = (t: Target) => (t.direct ? p50(t) - p50(t.direct) : NaN);
    const body = Buffer.byteLength(enginePass.body);
    console.log(`\nComparison: Claude Code–shaped ${(body / 1024).toFixed(1)} KB streaming request, ${options.rounds} interleaved rounds × ${options.seconds} s at ${options.connections} connections; ${options.samples} sequential requests per row for latency (${os.cpus().length} CPUs, load average ${os.loadavg().map((l) => l.toFixed(2)).join(' ')})\n`);
    printTable(targets.map((t) => ({ target: t.name, 'req/s': Math.round(rps(t)), 'proxy CPU µs/req': fmt(cpu(t), 0), 'latency p50 ms': fmt(p50(t), 3), 'added p50 ms': fmt(added(t), 3) })));
    const ratio = (a: number, b: number) => `${(a / b).toFixed(2)}×`;
    // The same ratio round by round (each round's targets ran back to back): how far one run's
    // figure can be trusted on a machine whose speed moves from minute to minute.
    const spread = (key: 'roundCpu' | 'roundRps', a: Target, b: Target) => {
      const r = tallies.get(a)![key].map((v, i) => v / tallies.get(b)![key][i]!).filter(Number.isFinite);
      return r.length > 1 ? ` (rounds ${Math.min(...r).toFixed(2)}–${Math.max(...r).toFixed(2)}×)` : '';
    };
    console.log('');
    console.log(`engine CPU/request vs pipe proxy: passthrough ${ratio(cpu(enginePass), cpu(pipePass))}${spread('roundCpu', enginePass, pipePass)} (target ≤ 1.5×) ${ok(cpu(enginePass) / cpu(pipePass) <= 1.5)}, translated ${ratio(cpu(engineTrans), cpu(pipeTrans))}${spread('roundCpu', engineTrans, pipeTrans)} (target ≤ 2×) ${ok(cpu(engineTrans) / cpu(pipeTrans) <= 2)}`);
    console.log(`engine CPU/request vs the pipe on undici (same HTTP client; no target): passthrough ${ratio(cpu(enginePass), cpu(upipePass))}${spread('roundCpu', enginePass, upipePass)}, translated ${ratio(cpu(engineTrans), cpu(upipeTrans))}${spread('roundCpu', engineTrans, upipeTrans)}`);
    console.log(`engine throughput vs claude-code-router: passthrough ${ratio(rps(enginePass), rps(ccrTrans))}${spread('roundRps', enginePass, ccrTrans)}, translated ${ratio(rps(engineTrans), rps(ccrTrans))}${spread('roundRps', engineTrans, ccrTrans)} (target ≥ 25×) ${ok(Math.min(rps(enginePass), rps(engineTrans)) / rps(ccrTrans) >= 25)}`);
    console.log(`engine CPU/request vs claude-code-router: translated ${ratio(cpu(ccrTrans), cpu(engineTrans))} less`);
    console.log(`added latency p50: engine passthrough ${fmt(added(enginePass), 3)} ms, engine translated ${fmt(added(engineTrans), 3)} ms, pipe ${fmt(added(pipePass), 3)} / ${fmt(added(pipeTrans), 3)} ms, pipe on undici ${fmt(added(upipePass), 3)} / ${fmt(added(upipeTrans), 3)} ms, claude-code-router ${fmt(added(ccrTrans), 3)} ms`);
  } finally {
    for (const child of children) child.kill('SIGTERM');
    await Promise.all(children.map((c) => (c.exitCode === null && c.signalCode === null ? new Promise((r) => c.once('exit', r)) : null)));
    await fs.rm(root, { recursive: true, force: true });
  }
}

async function startChild(children: ChildProcess[], command: string, args: string[], env: NodeJS.ProcessEnv, ready: RegExp | (() => Promise<boolean>)): Promise<{ port: number; pid: number | undefined }> {
  const child = spawn(command, args, { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'inherit'] });
  children.push(child);
  let out = '';
  child.stdout!.on('data', (c: Buffer) => (out += c.toString()));
  const exited = new Promise<never>((_, reject) => child.once('exit', (code) => reject(new Error(`${command} ${args.join(' ')} exited ${code}: ${out}`))));
  const until = Date.now() + 30_000;
  const poll = async (): Promise<number> => {
    for (;;) {
      if (ready instanceof RegExp) {
        const m = ready.exec(out);
        if (m) return Number(m[1]);
      } else if (await ready()) {
        return 0;
      }
      if (Date.now() > until) throw new Error(`${command} ${args.join(' ')} not ready in 30 s: ${out}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  };
  const port = await Promise.race([poll(), exited]);
  return { port, pid: child.pid };
}

function answers(url: string): Promise<boolean> {
  return new Promise((resolve) => {
    const req = http.get(url, { agent: false, timeout: 500 }, (res) => {
      res.resume();
      resolve(true);
    });
    req.once('timeout', () => req.destroy());
    req.once('error', () => resolve(false));
  });
}

const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });

/** `n` requests one after another on a keep-alive connection; whole-answer times in ms. */
async function sequential(t: Target, n: number): Promise<number[]> {
  const out: number[] = [];
  for (let i = 0; i < n; i++) {
    out.push(
      await new Promise<number>((resolve, reject) => {
        const started = performance.now();
        const req = http.request(t.url, { method: 'POST', agent, headers: { ...t.headers, 'content-length': Buffer.byteLength(t.body) } }, (res) => {
          if (res.statusCode !== 200) reject(new Error(`${t.name}: status ${res.statusCode}`));
          res.resume();
          res.on('end', () => resolve(performance.now() - started));
        });
        req.once('error', reject);
        req.end(t.body);
      }),
    );
  }
  return out;
}

function pct(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

function fmt(value: number, digits: number): string {
  return Number.isFinite(value) ? value.toFixed(digits) : '-';
}

function ok(pass: boolean): string {
  return pass ? 'PASS' : 'MISS';
}
