import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
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

type Prepare = (dirs: { home: string; agentDir: string }) => Promise<void>;

/** Starts `switchboard serve --port 0` from sources in its own process, so load and server do not share a core's event loop. */
export function serveFromSources(prepare?: Prepare): Promise<ServedApp> {
  return serve(['--import', 'tsx', 'main/cli/main.ts', 'serve', '--port', '0'], prepare);
}

/** Starts the built app as users run it, `node bin/switchboard.js serve --port 0`, building dist/ first when stale as `npm start` does. */
export function serveBuilt(prepare?: Prepare): Promise<ServedApp> {
  execFileSync(process.execPath, ['scripts/ensure-build.mjs'], { stdio: ['ignore', 'inherit', 'inherit'] });
  return serve(['bin/switchboard.js', 'serve', '--port', '0'], prepare);
}

async function serve(nodeArgs: string[], prepare?: Prepare): Promise<ServedApp> {
  const root = await fs.mkdtemp(path.join(os.tmpdir(), 'switchboard-bench-'));
  const home = path.join(root, 'home');
  const agentDir = path.join(root, 'agent');
  await fs.mkdir(agentDir, { recursive: true });
  await prepare?.({ home, agentDir });
  const child = spawn(process.execPath, nodeArgs, {
    env: { ...process.env, SWITCHBOARD_HOME: home, SWITCHBOARD_AGENT_DIR: agentDir, SWITCHBOARD_LOG_LEVEL: 'warn' },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let url: string;
  try {
    url = await new Promise<string>((resolve, reject) => {
      let out = '';
      const timer = setTimeout(() => reject(new Error(`serve did not start within 180 s: ${out}`)), 180_000);
      child.stdout!.on('data', (c: Buffer) => {
        out += c.toString();
        const m = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(out);
        if (m) {
          clearTimeout(timer);
          resolve(m[1]!);
        }
      });
      child.once('exit', (code) => {
        clearTimeout(timer);
        reject(new Error(`serve exited ${code}: ${out}`));
      });
    });
  } catch (err) {
    // A server that never came up is not left running behind the caller.
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    await fs.rm(root, { recursive: true, force: true });
    throw err;
  }
  return {
    url,
    port: Number(new URL(url).port),
    home,
    agentDir,
    child,
    async stop() {
      // Idempotent: a test's afterAll may stop a server its (timed-out) body is still stopping.
      if (child.exitCode === null && child.signalCode === null) {
        const exited = new Promise((r) => child.once('exit', r));
        child.kill('SIGTERM');
        await exited;
      }
      await fs.rm(root, { recursive: true, force: true });
    },
  };
}

/** The baseline of the load benches: plain node:http answering `body` (bench/bare-server.mjs) in its own process. */
export async function startBaseline(body: string): Promise<{ url: string; pid: number; stop(): Promise<void> }> {
  const child = spawn(process.execPath, [path.resolve('bench/bare-server.mjs'), body], { stdio: ['ignore', 'pipe', 'inherit'] });
  const port = await new Promise<string>((resolve) => child.stdout!.on('data', (c: Buffer) => resolve(/listening (\d+)/.exec(c.toString())![1]!)));
  return {
    url: `http://127.0.0.1:${port}/`,
    pid: child.pid!,
    stop() {
      const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
      child.kill('SIGTERM');
      return exited;
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
    errors: r.errors, // autocannon counts timeouts among its errors
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

/** One timed run of a load tool against one URL; latencies in ms. */
export interface Round {
  requests: number;
  seconds: number;
  /** Socket errors and timeouts. */
  errors: number;
  non2xx: number;
  p99: number;
}

/** The runs of one row: each adds its latency histogram to the row's, so percentiles cover every request. */
export interface LoadSeries {
  run(seconds: number): Promise<Round>;
  /** p50 and p99 in ms over all requests of the runs so far (merged histograms, not averaged percentiles). */
  percentiles(): { p50: number; p99: number };
}

export interface LoadTool {
  name: string;
  series(url: string): LoadSeries;
}

// autocannon documents aggregateResult for merging runs made with skipAggregateResult; @types/autocannon leaves it out.
const { aggregateResult } = autocannon as unknown as { aggregateResult(runs: RawRun[], opts: autocannon.Options): autocannon.Result };

/** What autocannon gives with skipAggregateResult: counts, and the latency histogram encoded for aggregateResult. */
interface RawRun {
  totalCompletedRequests: number;
  duration: number;
  /** Includes timeouts. */
  errors: number;
  non2xx: number;
}

/** autocannon, in this process: it takes CPU beside the server and its event loop adds to the latency it reports. */
export function autocannonTool(connections: number, extra: Omit<autocannon.Options, 'url' | 'connections'> = {}): LoadTool {
  return {
    name: 'autocannon',
    series(url) {
      const opts = { ...extra, url, connections };
      const runs: RawRun[] = [];
      return {
        async run(seconds) {
          const raw = (await autocannon({ ...opts, duration: seconds, skipAggregateResult: true })) as unknown as RawRun;
          runs.push(raw);
          const p99 = aggregateResult([raw], opts).latency.p99;
          return { requests: raw.totalCompletedRequests, seconds: raw.duration, errors: raw.errors, non2xx: raw.non2xx, p99 };
        },
        percentiles() {
          const { p50, p99 } = aggregateResult(runs, opts).latency;
          return { p50, p99 };
        },
      };
    },
  };
}

/** Request counts by latency in µs. */
export class Histogram {
  private readonly counts = new Map<number, number>();

  add(us: number, count: number): void {
    this.counts.set(us, (this.counts.get(us) ?? 0) + count);
  }

  addAll(other: Histogram): void {
    for (const [us, count] of other.counts) this.add(us, count);
  }

  total(): number {
    let n = 0;
    for (const count of this.counts.values()) n += count;
    return n;
  }

  /** Nearest rank: the smallest latency at or below which p % of the requests fall. NaN when empty. */
  percentile(p: number): number {
    const sorted = [...this.counts].sort((a, b) => a[0] - b[0]);
    const total = sorted.reduce((n, [, count]) => n + count, 0);
    const rank = Math.max(1, Math.ceil((p / 100) * total));
    let seen = 0;
    for (const [us, count] of sorted) {
      seen += count;
      if (seen >= rank) return us;
    }
    return NaN;
  }
}
