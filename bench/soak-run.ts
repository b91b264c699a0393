// The soak of issue 9, shared by `npm run bench:soak` (200 cycles) and its CI-sized test: start
// and stop the proxy and the bridge daemon through the management API, both loops at once, while
// a background load hits cached reads; then compare the server's children, open descriptors and
// RSS before and after. The server runs as its own process (serveFromSources), as in production.
import fs from 'node:fs/promises';
import path from 'node:path';
import autocannon from 'autocannon';
import { findFreePort } from '../main/infra/port-probe.js';
import { descendantsOf, openFdCount, rssKiB, type ProcessEntry } from '../test/helpers/process-tree.js';
import { OFFLINE_CONFIG_YAML } from '../test/helpers/offline-config.js';
import { serveFromSources } from './lib.js';

export interface SoakOptions {
  cycles: number;
  /** Connections per background route. */
  loadConnections: number;
  log?: (line: string) => void;
  /**
   * Aborting stops the load and the server at once. A test that gives up on the soak (its time
   * ran out) aborts from afterAll, so the server and its children never outlive the test file.
   */
  signal?: AbortSignal;
}

export interface Snapshot {
  children: ProcessEntry[];
  fds: number;
  rssKiB: number;
}

export interface CycleStats {
  ok: number;
  failed: string[];
  startMs: number[];
  stopMs: number[];
}

export interface SoakResult {
  serverPid: number;
  warmUpCycles: number;
  before: Snapshot;
  after: Snapshot;
  proxy: CycleStats;
  bridge: CycleStats;
  load: { requests: number; errors: number; non2xx: number; p50: number; p99: number };
  wallMs: number;
}

const BRIDGE_TOKEN = 'soak-editor-access-token-' + 'x'.repeat(40);
const MACHINE_ID = '0123456789abcdef0123456789abcdef';
export const LOAD_ROUTES = ['/api/usage/summary', '/api/proxy/proxy-status'];

interface Load {
  instance: autocannon.Instance;
  done: Promise<autocannon.Result>;
}

/** autocannon until stopped (the callback form gives both the instance and its final result). */
function startLoad(url: string, connections: number): Load {
  let instance!: autocannon.Instance;
  const done = new Promise<autocannon.Result>((resolve, reject) => {
    instance = autocannon({ url, connections, duration: 24 * 3600 }, (err: unknown, result) => (err ? reject(err) : resolve(result)));
  });
  return { instance, done };
}

function snapshot(pid: number): Snapshot {
  return { children: descendantsOf(pid), fds: openFdCount(pid), rssKiB: rssKiB(pid) };
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

async function usageTranscript(agentDir: string): Promise<void> {
  const dir = path.join(agentDir, 'projects', 'soak');
  await fs.mkdir(dir, { recursive: true });
  const lines = Array.from({ length: 2_000 }, (_, i) =>
    JSON.stringify({
      type: 'assistant',
      sessionId: `s-${i % 20}`,
      cwd: '/soak',
      timestamp: new Date(Date.UTC(2026, 0, 1 + (i % 28), i % 24)).toISOString(),
      requestId: `r-${i}`,
      message: { id: `m-${i}`, model: 'claude-sonnet-4-5-20250929', usage: { input_tokens: 100 + i, output_tokens: 50 } },
    }),
  );
  await fs.writeFile(path.join(dir, 'session.jsonl'), lines.join('\n') + '\n');
}

export async function runSoak(options: SoakOptions): Promise<SoakResult> {
  const log = options.log ?? (() => undefined);
  const [proxyPort, bridgePort] = [await findFreePort(), await findFreePort()];
  const app = await serveFromSources(async ({ home, agentDir }) => {
    await fs.mkdir(path.join(home, 'proxy'), { recursive: true, mode: 0o700 });
    await fs.writeFile(path.join(home, 'proxy', 'config.yaml'), `server:\n  port: ${proxyPort}\n  host: 127.0.0.1\nupstreams: []\n`, { mode: 0o600 });
    const cursor = `cursor:\n  enabled: true\n  port: ${bridgePort}\n  upstream_url: http://127.0.0.1:9\n`;
    await fs.writeFile(path.join(home, 'config.yaml'), OFFLINE_CONFIG_YAML.replace(/cursor:\n.*\n/, cursor), { mode: 0o600 });
    await usageTranscript(agentDir);
  });
  const serverPid = app.child.pid!;
  const load: Load[] = [];
  const abandon = () => {
    for (const l of load) l.instance.stop();
    void app.stop();
  };
  if (options.signal?.aborted) abandon();
  options.signal?.addEventListener('abort', abandon, { once: true });
  const call = async (method: string, urlPath: string, body?: unknown) => {
    const res = await fetch(app.url + urlPath, {
      method,
      headers: body === undefined ? {} : { 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: AbortSignal.timeout(60_000),
    });
    return { status: res.status, body: (await res.json()) as Record<string, unknown> };
  };
  try {
    const imported = await call('POST', '/api/bridge/auth/import', { accessToken: BRIDGE_TOKEN, machineId: MACHINE_ID });
    if (imported.status !== 200) throw new Error(`bridge import: ${JSON.stringify(imported.body)}`);
    if ((await call('GET', '/api/usage/summary')).status !== 200) throw new Error('usage summary failed');

    const proxy: CycleStats = { ok: 0, failed: [], startMs: [], stopMs: [] };
    const bridge: CycleStats = { ok: 0, failed: [], startMs: [], stopMs: [] };
    const cycle = async (stats: CycleStats | null, start: string, stop: string, started: (b: Record<string, unknown>) => boolean) => {
      const t0 = performance.now();
      const s = await call('POST', start);
      const t1 = performance.now();
      const e = await call('POST', stop);
      const t2 = performance.now();
      const ok = s.status === 200 && started(s.body) && e.status === 200 && e.body.stopped === true;
      if (!stats) return;
      stats.startMs.push(t1 - t0);
      stats.stopMs.push(t2 - t1);
      if (ok) stats.ok++;
      else stats.failed.push(`start ${s.status} ${JSON.stringify(s.body)} / stop ${e.status} ${JSON.stringify(e.body)}`);
    };
    const proxyCycle = (stats: CycleStats | null) => cycle(stats, '/api/proxy/proxy-start', '/api/proxy/proxy-stop', (b) => b.started === true);
    const bridgeCycle = (stats: CycleStats | null) => cycle(stats, '/api/bridge/daemon/start', '/api/bridge/daemon/stop', (b) => b.success === true);

    // Background load on cached reads for the whole run; warm-up cycles so lazy loading settles.
    for (const route of LOAD_ROUTES) {
      load.push(startLoad(app.url + route, options.loadConnections));
    }
    // The heap grows to its working size over the first cycles (JIT, buffers, V8 sizing): measure
    // growth from after that, so a leak, which grows with every cycle, is what the bound sees.
    const warmUp = Math.max(3, Math.round(options.cycles / 10));
    for (let i = 0; i < warmUp; i++) await Promise.all([proxyCycle(null), bridgeCycle(null)]);
    await sleep(2_000);
    const before = snapshot(serverPid);
    const names = before.children.map((p) => p.comm).join(', ') || 'none';
    log(`baseline after ${warmUp} warm-up cycles each: ${before.children.length} children (${names}), ${before.fds} fds, ${Math.round(before.rssKiB / 1024)} MiB RSS`);

    const t0 = performance.now();
    const loop = async (name: string, stats: CycleStats, one: (s: CycleStats) => Promise<void>) => {
      for (let i = 1; i <= options.cycles; i++) {
        await one(stats);
        if (i % 20 === 0 || i === options.cycles) {
          const now = snapshot(serverPid);
          log(`${name}: ${i}/${options.cycles} cycles, ${stats.failed.length} failed; server ${now.fds} fds, ${Math.round(now.rssKiB / 1024)} MiB RSS`);
        }
      }
    };
    await Promise.all([loop('proxy', proxy, proxyCycle), loop('bridge', bridge, bridgeCycle)]);
    const wallMs = performance.now() - t0;
    await sleep(1_000); // let the last exits, sockets and timers settle
    const after = snapshot(serverPid);

    for (const l of load) l.instance.stop();
    const results = await Promise.all(load.map((l) => l.done));
    load.length = 0;
    const total = (f: (r: autocannon.Result) => number) => results.reduce((sum, r) => sum + f(r), 0);
    return {
      serverPid,
      warmUpCycles: warmUp,
      before,
      after,
      proxy,
      bridge,
      load: {
        requests: total((r) => r.requests.total),
        errors: total((r) => r.errors + r.timeouts),
        non2xx: total((r) => r.non2xx),
        p50: Math.max(...results.map((r) => r.latency.p50)),
        p99: Math.max(...results.map((r) => r.latency.p99)),
      },
      wallMs,
    };
  } finally {
    options.signal?.removeEventListener('abort', abandon);
    for (const l of load) l.instance.stop();
    await app.stop();
  }
}

/** Supervised children (proxy engine, bridge daemon) or zombies among a snapshot's processes. */
export function leftovers(s: Snapshot): ProcessEntry[] {
  return s.children.filter((p) => /proxy-engine\/main|bridge-daemon\/main/.test(p.cmdline) || p.state === 'Z');
}

export function percentile(values: number[], p: number): number {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}
