// wrk (C, epoll) as the load generator of the paced rows of npm run bench:api: each connection
// waits a random time between answer and next request (a Lua delay()), which h2load cannot do —
// its --rps sends every connection's requests in step, in bursts of one per connection. A Lua
// done() prints wrk's whole latency histogram (1 µs buckets) so that a row's rounds merge into
// percentiles over all of its requests. Flat out, wrk's latencies on this machine include a tail of
// its own (h2load.ts), so the flat-out rows use h2load.
import { execFile, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { Histogram, type LoadTool } from './lib.js';

// latency(i) is the i-th non-empty bucket: value in µs and count. summary.errors.status counts
// statuses above 399, which is what wrk prints as "Non-2xx or 3xx responses".
const DONE_LUA = `
done = function(summary, latency, requests)
  local e = summary.errors
  io.write(string.format("bench-summary %d %d %d %d %d %d %d\\n",
    summary.duration, summary.requests, e.connect, e.read, e.write, e.timeout, e.status))
  for i = 1, #latency do
    local us, count = latency(i)
    io.write(string.format("bench-latency %d %d\\n", us, count))
  end
end
`;

const run = promisify(execFile);

export function wrkOnPath(): boolean {
  return spawnSync('wrk', ['-v']).error === undefined;
}

/**
 * wrk -t1 at `connections`, with the timeout autocannon uses by default (10 s) so errors mean the
 * same with both. Each connection waits a random 0–2×thinkMs (mean thinkMs) after each answer
 * before its next request, like many clients that each read now and then: the load is then about
 * connections / thinkMs requests per ms instead of as much as the server takes, and latency is the
 * server's answer time under that load rather than the queue of a saturated one.
 */
export function wrkTool(connections: number, thinkMs: number): LoadTool {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'switchboard-wrk-'));
  const script = path.join(dir, 'histogram.lua');
  fs.writeFileSync(script, `delay = function() return math.random(0, ${2 * thinkMs}) end\n${DONE_LUA}`);
  process.once('exit', () => fs.rmSync(dir, { recursive: true, force: true }));
  return {
    name: `wrk -t1, ${thinkMs} ms mean think time`,
    series(url) {
      const merged = new Histogram();
      return {
        async run(seconds) {
          const args = ['-t1', `-c${connections}`, `-d${seconds}s`, '--latency', '--timeout', '10s', '-s', script, url];
          const { stdout } = await run('wrk', args, { maxBuffer: 256 * 1024 * 1024 });
          const result = parseWrk(stdout);
          merged.addAll(result.latency);
          return { ...result.round, p99: result.latency.percentile(99) / 1000 };
        },
        percentiles: () => ({ p50: merged.percentile(50) / 1000, p99: merged.percentile(99) / 1000 }),
      };
    },
  };
}

function parseWrk(stdout: string) {
  const summary = /^bench-summary (\d+) (\d+) (\d+) (\d+) (\d+) (\d+) (\d+)$/m.exec(stdout);
  if (!summary) throw new Error(`wrk printed no summary:\n${stdout}`);
  const [duration, requests, connect, read, write, timeout, status] = summary.slice(1).map(Number) as number[];
  const errors = connect! + read! + write! + timeout!;
  // The same counters as done() got; checked so that a printed error can never go uncounted.
  const socket = /Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)/.exec(stdout);
  const printedErrors = socket ? socket.slice(1).reduce((a, n) => a + Number(n), 0) : 0;
  const printedNon2xx = Number(/Non-2xx or 3xx responses: (\d+)/.exec(stdout)?.[1] ?? 0);
  if (printedErrors !== errors || printedNon2xx !== status) {
    throw new Error(`wrk printed ${printedErrors} socket errors and ${printedNon2xx} non-2xx, done() counted ${errors} and ${status}`);
  }
  const latency = new Histogram();
  for (const m of stdout.matchAll(/^bench-latency (\d+) (\d+)$/gm)) latency.add(Number(m[1]), Number(m[2]));
  return { round: { requests: requests!, seconds: duration! / 1e6, errors, non2xx: status! }, latency };
}
