// npm run bench:usage-agents — every agent's logs together (issue 32, point 3), beside ccusage
// 20.0.24 in one run: a cold scan by `switchboard usage daily --by-agent` next to `ccusage daily`
// (all agents), and the refresh after an append (p50/p95).
//   USAGE_AGENTS_MB=64 (corpus size; the measure is 1024)  BENCH_RUNS=5  BENCH_REFRESH_RUNS=40
//   BENCH_CLAUDE_SHARE=0.2 (the part of the corpus that is Claude Code transcripts)
//   USAGE_AGENTS_CORPUS=<dir> keeps the corpus there and reuses it (default: a temp dir, removed after)
// The corpus is the tier-1 agents (codex, gemini, opencode, amp: scripts/gen-agents.mjs --agents,
// seed 42, 200 turns, sessions scaled to the size) plus Claude (scripts/gen-usage.mjs, seed 42).
// Each measurement is its own process, one at a time, from a compiled copy of main/ (no TypeScript
// loader timed). "net" subtracts each tool's start-up on empty folders, measured the same way.
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { printTable } from './lib.js';
import { buildForBench } from './usage-build.js';

const root = process.cwd();
const sizeMb = Number(process.env.USAGE_AGENTS_MB ?? 64);
const claudeShare = Number(process.env.BENCH_CLAUDE_SHARE ?? 0.2);
const runs = Number(process.env.BENCH_RUNS ?? 5);
const refreshRuns = Number(process.env.BENCH_REFRESH_RUNS ?? 40);
const TIER1 = 'codex,gemini,opencode,amp';
const TURNS = 200;
/** Bytes one tier-1 session (all four agents) takes at 200 turns, seed 42 (measured: 20 sessions, 3.27 MB). */
const BYTES_PER_SESSION = 163_000;
const build = path.join(root, 'bench', '.corpus', 'build-agents');
const cli = path.join(build, 'dist', 'main', 'cli', 'main.js');
const child = path.join(build, 'dist', 'bench', 'usage-child.js');
const ccusage = path.join(root, 'node_modules', '.bin', 'ccusage');
const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'switchboard-bench-agents-'));
const kept = process.env.USAGE_AGENTS_CORPUS;
const corpus = kept ?? path.join(scratch, 'corpus');

function prepareCorpus(): Record<string, string> {
  const manifest = path.join(corpus, 'gen-agents-manifest.json');
  const wanted = `${sizeMb}:${claudeShare}`;
  const stamp = path.join(corpus, 'bench-size');
  if (!fs.existsSync(manifest) || !fs.existsSync(stamp) || fs.readFileSync(stamp, 'utf8') !== wanted) {
    const sessions = Math.max(2, Math.round((sizeMb * (1 << 20) * (1 - claudeShare)) / BYTES_PER_SESSION));
    console.error(`generating ${sizeMb} MiB (${sessions} tier-1 sessions, ${Math.round(claudeShare * 100)} % Claude) in ${corpus} …`);
    fs.rmSync(corpus, { recursive: true, force: true });
    const gen = ['scripts/gen-agents.mjs', '--out', corpus, '--seed', '42', '--sessions', String(sessions), '--turns', String(TURNS), '--days', '60', '--agents', TIER1, '--quiet'];
    const a = spawnSync(process.execPath, gen, { stdio: 'inherit' });
    const claudeBytes = `${Math.max(1, Math.round(sizeMb * claudeShare))}MB`;
    const c = spawnSync(process.execPath, ['scripts/gen-usage.mjs', '--out', path.join(corpus, 'claude'), '--bytes', claudeBytes, '--seed', '42', '--instances', '0', '--quiet'], { stdio: 'inherit' });
    if (a.status !== 0 || c.status !== 0) throw new Error('corpus generation failed');
    fs.writeFileSync(stamp, wanted);
  }
  return (JSON.parse(fs.readFileSync(manifest, 'utf8')) as { env: Record<string, string> }).env;
}

function duBytes(dir: string): number {
  const r = spawnSync('du', ['-sb', dir], { encoding: 'utf8' });
  return Number(r.stdout.split('\t')[0]);
}

function countFiles(dir: string): number {
  const r = spawnSync('find', [dir, '-type', 'f'], { encoding: 'utf8', maxBuffer: 1 << 30 });
  return r.stdout.split('\n').filter(Boolean).length;
}

function timed(command: string, args: string[], env: NodeJS.ProcessEnv): Promise<{ ms: number; stdout: string }> {
  return new Promise((resolve, reject) => {
    const t0 = performance.now();
    const p = spawn(command, args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    p.stdout.on('data', (c: Buffer) => (stdout += c));
    p.stderr.on('data', (c: Buffer) => (stderr += c));
    p.on('error', reject);
    p.on('exit', (code) => (code === 0 ? resolve({ ms: performance.now() - t0, stdout }) : reject(new Error(`${command} exited ${code}: ${stderr.slice(-1000)}`))));
  });
}

const sorted = (xs: number[]) => [...xs].sort((a, b) => a - b);
const median = (xs: number[]) => sorted(xs)[Math.floor(xs.length / 2)]!;
const quantile = (xs: number[], q: number) => sorted(xs)[Math.min(xs.length - 1, Math.ceil(q * xs.length) - 1)]!;
const span = (xs: number[]) => `${Math.min(...xs).toFixed(0)}–${Math.max(...xs).toFixed(0)}`;

/** The largest file below `dir` whose name passes `accept` (the append target: read whole when it is an agent's). */
function largest(dir: string, accept: (name: string) => boolean): string {
  let best = { file: '', size: -1 };
  const walk = (d: string): void => {
    for (const e of fs.readdirSync(d, { withFileTypes: true })) {
      const full = path.join(d, e.name);
      if (e.isDirectory()) walk(full);
      else if (accept(e.name)) {
        const size = fs.statSync(full).size;
        if (size > best.size) best = { file: full, size };
      }
    }
  };
  walk(dir);
  return best.file;
}

async function main(): Promise<void> {
  const agentEnv = prepareCorpus();
  buildForBench(root, build);
  const home = path.join(scratch, 'home');
  const empty = path.join(scratch, 'empty');
  fs.mkdirSync(home);
  fs.mkdirSync(path.join(empty, 'projects'), { recursive: true }); // ccusage wants a Claude dir with projects/
  const claude = path.join(corpus, 'claude');
  const base = { PATH: process.env.PATH ?? '', HOME: home, TZ: 'UTC' };
  const emptyAgents = Object.fromEntries(Object.keys(agentEnv).map((k) => [k, empty]));
  const theirs = (env: Record<string, string>, claudeDir: string) => timed(ccusage, ['daily', '--json', '--offline', '--timezone', 'UTC'], { ...base, ...env, CLAUDE_CONFIG_DIR: claudeDir });
  let n = 0;
  // A fresh SWITCHBOARD_HOME each run: no disk cache, no remembered answer — a cold scan.
  const ours = (env: Record<string, string>, claudeDir: string) =>
    timed(process.execPath, [cli, 'usage', 'daily', '--json', '--tz', 'UTC', '--by-agent'], { ...base, ...env, SWITCHBOARD_HOME: path.join(scratch, `sb-${n++}`), SWITCHBOARD_AGENT_DIR: claudeDir });

  // Warm-ups (page cache), then alternate so both see the same conditions.
  await theirs(agentEnv, claude);
  await ours(agentEnv, claude);
  const t: number[] = [];
  const o: number[] = [];
  const t0: number[] = [];
  const o0: number[] = [];
  const ratios: number[] = [];
  let check: { ours: number; theirs: number } | null = null;
  for (let i = 0; i < runs; i++) {
    const a = await theirs(agentEnv, claude);
    const b = await ours(agentEnv, claude);
    const a0 = (await theirs(emptyAgents, empty)).ms;
    const b0 = (await ours(emptyAgents, empty)).ms;
    t.push(a.ms);
    o.push(b.ms);
    t0.push(a0);
    o0.push(b0);
    ratios.push(Math.max(0, b.ms - b0) / Math.max(1, a.ms - a0));
    if (check === null) {
      const theirTotal = (JSON.parse(a.stdout) as { daily: Array<{ totalTokens: number }> }).daily.reduce((s, d) => s + d.totalTokens, 0);
      const ourTotal = (JSON.parse(b.stdout) as { daily: Array<{ agentBreakdown: Record<string, { totalTokens: number }> }> }).daily.reduce(
        (s, d) => s + Object.values(d.agentBreakdown).reduce((x, y) => x + y.totalTokens, 0),
        0,
      );
      check = { ours: ourTotal, theirs: theirTotal };
    }
  }
  // Refresh after an append, on a warm service (its disk cache written), alternating a codex
  // session (read whole again) and a Claude transcript (read from its last offset).
  const codexFile = largest(path.join(corpus, 'codex', 'home', 'sessions'), (f) => f.endsWith('.jsonl'));
  const claudeFile = largest(claude, (f) => f.endsWith('.jsonl'));
  const refresh = await timed(process.execPath, [child, 'refresh-agents', claude, path.join(scratch, 'refresh-home'), codexFile, claudeFile, String(refreshRuns)], { ...base, ...agentEnv });
  const r = JSON.parse(refresh.stdout) as { runs: number[]; growing: number[]; firstScanMs: number; armMs: number; walkMs: number };

  const net = (xs: number[], start: number[]) => Math.max(0, median(xs) - median(start));
  const mib = (duBytes(corpus) / (1 << 20)).toFixed(0);
  console.log(`corpus: ${mib} MiB, ${countFiles(corpus)} files (tier-1 agents + ${Math.round(claudeShare * 100)} % Claude); load average ${os.loadavg().map((x) => x.toFixed(1)).join(' / ')}`);
  printTable([
    { what: `ccusage daily --offline --json, all agents`, 'median ms': median(t).toFixed(0), 'min–max': span(t), 'start-up ms': median(t0).toFixed(0), 'net ms': net(t, t0).toFixed(0), ratio: '1.00' },
    {
      what: 'switchboard usage daily --by-agent, cold (no disk cache)',
      'median ms': median(o).toFixed(0),
      'min–max': span(o),
      'start-up ms': median(o0).toFixed(0),
      'net ms': net(o, o0).toFixed(0),
      ratio: `${(net(o, o0) / Math.max(1, net(t, t0))).toFixed(2)} (per run ${Math.min(...ratios).toFixed(2)}–${Math.max(...ratios).toFixed(2)})`,
    },
  ]);
  console.log(
    `refresh after a one-line append (refresh + daily answer, ${r.runs.length} runs; codex ${(fs.statSync(codexFile).size / 1024).toFixed(0)} KiB file, Claude transcript alternately): ` +
      `p50 ${quantile(r.runs, 0.5).toFixed(1)} ms, p95 ${quantile(r.runs, 0.95).toFixed(1)} ms, max ${Math.max(...r.runs).toFixed(1)} ms`,
  );
  console.log(
    `refresh after a one-line append while the files only grow (no cut back between runs; ${r.growing.length} runs, the same two files): ` +
      `p50 ${quantile(r.growing, 0.5).toFixed(1)} ms, p95 ${quantile(r.growing, 0.95).toFixed(1)} ms, max ${Math.max(...r.growing).toFixed(1)} ms`,
  );
  console.log(`  (that process: first scan ${r.firstScanMs.toFixed(0)} ms, setting the directory watches ${r.armMs.toFixed(0)} ms in steps, the walk after it ${r.walkMs.toFixed(0)} ms)`);
  console.log(`total tokens, every agent: ours ${check!.ours}, ccusage ${check!.theirs}${check!.ours === check!.theirs ? ' (equal)' : ' (DIFFER)'}`);
}

main()
  .catch((err) => {
    console.error(err);
    process.exitCode = 1;
  })
  .finally(() => fs.rmSync(scratch, { recursive: true, force: true }));
