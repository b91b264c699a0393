// npm run bench:usage-agents — every agent's logs together (issue 32): a cold scan by
// `switchboard usage daily` next to `ccusage daily` (all agents), ccusage 20.0.24, in one run.
//   BENCH_AGENT_SESSIONS=200 (sessions per agent)  BENCH_AGENT_TURNS=60  BENCH_CLAUDE=20MB  BENCH_RUNS=5
// The corpus (scripts/gen-agents.mjs + gen-usage.mjs, seed 42) is written once into
// bench/.corpus/agents-<sessions>-<turns>-<claude> and reused. Each measurement is its own process,
// one at a time, from a compiled copy of main/ (no TypeScript loader timed). "net" subtracts each
// tool's start-up on empty folders, measured the same way.
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { printTable } from './lib.js';
import { buildForBench } from './usage-build.js';

const root = process.cwd();
const sessions = Number(process.env.BENCH_AGENT_SESSIONS ?? 200);
const turns = Number(process.env.BENCH_AGENT_TURNS ?? 60);
const claudeBytes = process.env.BENCH_CLAUDE ?? '20MB';
const runs = Number(process.env.BENCH_RUNS ?? 5);
const corpora = path.join(root, 'bench', '.corpus');
const corpus = path.join(corpora, `agents-${sessions}-${turns}-${claudeBytes}`);
const build = path.join(corpora, 'build-agents');
const cli = path.join(build, 'dist', 'main', 'cli', 'main.js');
const ccusage = path.join(root, 'node_modules', '.bin', 'ccusage');
const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'switchboard-bench-agents-'));

function prepareCorpus(): Record<string, string> {
  const manifest = path.join(corpus, 'gen-agents-manifest.json');
  if (!fs.existsSync(manifest)) {
    console.error(`generating ${corpus} …`);
    fs.rmSync(corpus, { recursive: true, force: true });
    const a = spawnSync(process.execPath, ['scripts/gen-agents.mjs', '--out', corpus, '--seed', '42', '--sessions', String(sessions), '--turns', String(turns), '--days', '60', '--quiet'], { stdio: 'inherit' });
    const c = spawnSync(process.execPath, ['scripts/gen-usage.mjs', '--out', path.join(corpus, 'claude'), '--bytes', claudeBytes, '--seed', '42', '--instances', '0', '--quiet'], { stdio: 'inherit' });
    if (a.status !== 0 || c.status !== 0) throw new Error('corpus generation failed');
  }
  return (JSON.parse(fs.readFileSync(manifest, 'utf8')) as { env: Record<string, string> }).env;
}

function duBytes(dir: string): number {
  const r = spawnSync('du', ['-sb', dir], { encoding: 'utf8' });
  return Number(r.stdout.split('\t')[0]);
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

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

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
  let check: { ours: number; theirs: number } | null = null;
  for (let i = 0; i < runs; i++) {
    const a = await theirs(agentEnv, claude);
    const b = await ours(agentEnv, claude);
    t.push(a.ms);
    o.push(b.ms);
    t0.push((await theirs(emptyAgents, empty)).ms);
    o0.push((await ours(emptyAgents, empty)).ms);
    if (check === null) {
      const theirTotal = (JSON.parse(a.stdout) as { daily: Array<{ totalTokens: number }> }).daily.reduce((s, d) => s + d.totalTokens, 0);
      const ourTotal = (JSON.parse(b.stdout) as { daily: Array<{ agentBreakdown: Record<string, { totalTokens: number }> }> }).daily.reduce(
        (s, d) => s + Object.values(d.agentBreakdown).reduce((x, y) => x + y.totalTokens, 0),
        0,
      );
      check = { ours: ourTotal, theirs: theirTotal };
    }
  }
  const net = (xs: number[], start: number[]) => Math.max(0, median(xs) - median(start));
  const mib = (duBytes(corpus) / (1 << 20)).toFixed(0);
  printTable([
    { what: `ccusage daily --offline --json, all agents (${mib} MiB)`, 'median ms': median(t).toFixed(0), 'start-up ms': median(t0).toFixed(0), 'net ms': net(t, t0).toFixed(0), ratio: '1.00' },
    {
      what: 'switchboard usage daily --by-agent, cold (no disk cache)',
      'median ms': median(o).toFixed(0),
      'start-up ms': median(o0).toFixed(0),
      'net ms': net(o, o0).toFixed(0),
      ratio: (net(o, o0) / Math.max(1, net(t, t0))).toFixed(2),
    },
  ]);
  console.log(`total tokens, every agent: ours ${check!.ours}, ccusage ${check!.theirs}${check!.ours === check!.theirs ? ' (equal)' : ' (DIFFER)'}`);
}

main()
  .catch((err) => {
    console.error(err);
    process.exitCode = 1;
  })
  .finally(() => fs.rmSync(scratch, { recursive: true, force: true }));
