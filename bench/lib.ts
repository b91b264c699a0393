import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';

export interface ServedApp {
  url: string;
  port: number;
  home: string;
  agentDir: string;
  child: ChildProcess;
  stop(): Promise<void>;
}

/** Starts `switchboard serve --port 0` from sources in its own process, so load and server do not share a core's event loop. */
export async function serveFromSources(prepare?: (dirs: { home: string; agentDir: string }) => Promise<void>): Promise<ServedApp> {
  const root = await fs.mkdtemp(path.join(os.tmpdir(), 'switchboard-bench-'));
  const home = path.join(root, 'home');
  const agentDir = path.join(root, 'agent');
  await fs.mkdir(agentDir, { recursive: true });
  await prepare?.({ home, agentDir });
  const child = spawn(process.execPath, ['--import', 'tsx', 'main/cli/main.ts', 'serve', '--port', '0'], {
    env: { ...process.env, SWITCHBOARD_HOME: home, SWITCHBOARD_AGENT_DIR: agentDir, SWITCHBOARD_LOG_LEVEL: 'warn' },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const url = await new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (c: Buffer) => {
      out += c.toString();
      const m = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(out);
      if (m) resolve(m[1]!);
    });
    child.once('exit', (code) => reject(new Error(`serve exited ${code}: ${out}`)));
  });
  return {
    url,
    port: Number(new URL(url).port),
    home,
    agentDir,
    child,
    async stop() {
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      await exited;
      await fs.rm(root, { recursive: true, force: true });
    },
  };
}

export interface LoadResult {
  name: string;
  rps: number;
  p50: number;
  p99: number;
  errors: number;
  non2xx: number;
  requests: number;
}

export async function load(name: string, opts: autocannon.Options): Promise<LoadResult> {
  const r = await autocannon({ ...opts });
  return {
    name,
    rps: Math.round(r.requests.average),
    p50: r.latency.p50,
    p99: r.latency.p99,
    errors: r.errors + r.timeouts,
    non2xx: r.non2xx,
    requests: r.requests.total,
  };
}

export function printTable(rows: Array<Record<string, string | number>>): void {
  if (rows.length === 0) return;
  const cols = Object.keys(rows[0]!);
  const width = cols.map((c) => Math.max(c.length, ...rows.map((r) => String(r[c]).length)));
  const line = (cells: string[]) => cells.map((c, i) => c.padEnd(width[i]!)).join('  ');
  console.log(line(cols));
  console.log(line(width.map((w) => '-'.repeat(w))));
  for (const r of rows) console.log(line(cols.map((c) => String(r[c]))));
}
