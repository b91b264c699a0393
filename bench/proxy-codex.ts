// The codex round of npm run bench:proxy (issue 29): the engine's CPU per request on a Claude
// Code–shaped streaming request (bench/claude-code-body.ts: tools, thinking, a long tool result)
// sent to a codex account (Anthropic Messages → Responses API, upstream always streamed) against
// the translated OpenAI path (Anthropic Messages → Chat Completions) in the same engine and run.
// The upstream is one local fake (bench/fake-llm-server.ts) answering both paths with the same 20
// tokens; the engine reaches it for chatgpt.com through SWITCHBOARD_ORIGIN_OVERRIDES, as the app
// hands it over, with a codex auth file in the config dir's auth/ as the accounts service writes it.
// The two targets alternate round by round (BENCH_CODEX_ROUNDS × BENCH_CODEX_SECONDS) so machine
// load hits both alike; the answer is the ratio codex / translated, overall and per round.
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs/promises';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { engineCommand } from '../main/engines/proxy-engine/command.js';
import { findFreePort } from '../main/infra/port-probe.js';
import { claudeCodeBody } from './claude-code-body.js';
import { load, printTable } from './lib.js';
import { processCpuMicros } from './process-cpu.js';

const KEY = 'sk-bench-codex-key-0123456789';

interface Target {
  name: string;
  url: string;
  body: string;
}

interface Tally {
  requests: number;
  cpu: number;
  roundCpu: number[];
  roundRps: number[];
}

export async function compareCodex(options: { seconds: number; rounds: number; connections: number; bytes: number }): Promise<void> {
  const root = await fs.mkdtemp(path.join(os.tmpdir(), 'switchboard-bench-codex-'));
  const children: ChildProcess[] = [];
  try {
    const fake = await startChild(children, process.execPath, ['--import', 'tsx', 'bench/fake-llm-server.ts'], {}, /listening (\d+)/);
    const upstream = `http://127.0.0.1:${fake.port}`;
    const enginePort = await findFreePort();
    const config = path.join(root, 'config.yaml');
    await fs.writeFile(
      config,
      `server: { port: ${enginePort}, host: 127.0.0.1 }\nauth: { api_key: ${KEY} }\nupstreams:\n` +
        `  - { name: oa, format: openai, base_url: "${upstream}/v1", api_key: sk-upstream, models: [cc-trans] }\n`,
    );
    // A codex account as the accounts service writes it (CLIProxyAPI's format, reference/accounts §4).
    await fs.mkdir(path.join(root, 'auth'), { mode: 0o700 });
    await fs.writeFile(
      path.join(root, 'auth', 'codex-bench0001-bench@example.com-plus.json'),
      JSON.stringify({ type: 'codex', access_token: 'at-bench', refresh_token: 'rt-bench', account_id: 'acct-bench', email: 'bench@example.com', expired: '2099-01-01T00:00:00Z' }),
    );
    const entry = engineCommand(config);
    const engine = await startChild(
      children,
      entry.command,
      entry.args,
      { ...entry.env, WRITABLE_PATH: root, SWITCHBOARD_ENGINE_LOG_LEVEL: 'warn', SWITCHBOARD_ORIGIN_OVERRIDES: JSON.stringify({ 'https://chatgpt.com': upstream }) },
      /listening on http:\/\/127\.0\.0\.1:(\d+)/,
    );
    const base = `http://127.0.0.1:${engine.port}/v1/messages`;
    const translated: Target = { name: 'engine, Anthropic client → OpenAI upstream (translated)', url: base, body: claudeCodeBody('cc-trans', options.bytes) };
    const codex: Target = { name: 'engine, Anthropic client → codex account (Responses)', url: base, body: claudeCodeBody('gpt-5.4', options.bytes) };
    const targets = [translated, codex];
    const headers = { 'content-type': 'application/json', 'x-api-key': KEY };

    for (const t of targets) await warm(t, headers, 50); // connections, JIT, and an answer checked once
    const tallies = new Map<Target, Tally>(targets.map((t) => [t, { requests: 0, cpu: 0, roundCpu: [], roundRps: [] }]));
    for (let round = 0; round < options.rounds; round++) {
      for (const t of targets) {
        const before = processCpuMicros(engine.pid);
        const r = await load(t.name, { url: t.url, method: 'POST', body: t.body, headers, connections: options.connections, duration: options.seconds });
        const after = processCpuMicros(engine.pid);
        if (r.errors || r.non2xx) throw new Error(`${t.name}: ${r.errors} errors, ${r.non2xx} non-2xx`);
        if (before === undefined || after === undefined) throw new Error('the engine\u2019s CPU time cannot be read here (/proc is Linux only)');
        const tally = tallies.get(t)!;
        tally.requests += r.requests;
        tally.cpu += after - before;
        tally.roundCpu.push((after - before) / r.requests);
        tally.roundRps.push(r.requests / options.seconds);
      }
    }

    const cpu = (t: Target) => tallies.get(t)!.cpu / tallies.get(t)!.requests;
    const bytes = Buffer.byteLength(codex.body);
    console.log(
      `\nCodex executor: Claude Code–shaped ${(bytes / 1024).toFixed(1)} KB streaming request, ${options.rounds} interleaved rounds × ${options.seconds} s at ${options.connections} connections` +
        ` (${os.cpus().length} CPUs, load average ${os.loadavg().map((l) => l.toFixed(2)).join(' ')})\n`,
    );
    printTable(targets.map((t) => ({ target: t.name, 'req/s': Math.round(tallies.get(t)!.requests / (options.seconds * options.rounds)), 'proxy CPU µs/req': cpu(t).toFixed(0), 'rounds µs/req': tallies.get(t)!.roundCpu.map((v) => v.toFixed(0)).join(' ') })));
    const perRound = tallies.get(codex)!.roundCpu.map((v, i) => v / tallies.get(translated)!.roundCpu[i]!);
    const ratio = cpu(codex) / cpu(translated);
    console.log(
      `\ncodex CPU/request vs translated OpenAI: ${ratio.toFixed(2)}× (rounds ${Math.min(...perRound).toFixed(2)}–${Math.max(...perRound).toFixed(2)}×) (target ≤ 1×) ${ratio <= 1 ? 'PASS' : 'MISS'}`,
    );
  } finally {
    for (const child of children) child.kill('SIGTERM');
    await Promise.all(children.map((c) => (c.exitCode === null && c.signalCode === null ? new Promise((r) => c.once('exit', r)) : null)));
    await fs.rm(root, { recursive: true, force: true });
  }
}

function startChild(children: ChildProcess[], command: string, args: string[], env: NodeJS.ProcessEnv, ready: RegExp): Promise<{ port: number; pid: number | undefined }> {
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

const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });

/** `n` requests one after another; the first answer must be a whole Anthropic stream with the fake's tokens. */
async function warm(t: Target, headers: Record<string, string>, n: number): Promise<void> {
  for (let i = 0; i < n; i++) {
    const text = await new Promise<string>((resolve, reject) => {
      const req = http.request(t.url, { method: 'POST', agent, headers: { ...headers, 'content-length': Buffer.byteLength(t.body) } }, (res) => {
        let out = '';
        res.setEncoding('utf8');
        res.on('data', (c: string) => (out += c));
        res.on('end', () => (res.statusCode === 200 ? resolve(out) : reject(new Error(`${t.name}: status ${res.statusCode}: ${out}`))));
      });
      req.once('error', reject);
      req.end(t.body);
    });
    if (i === 0 && !(text.includes('token19') && text.includes('message_stop'))) throw new Error(`${t.name}: not the fake's answer: ${text.slice(0, 500)}`);
  }
}
