// npm run bench:load-tools — which load generator's latencies can be trusted on this machine.
// A bare node:http server times, per connection, each cycle from a response written to the next
// request read. A request's latency as a client sees it is at most two such cycles (it cannot be
// sent before the previous answer arrived, and the next one is not sent before this answer was
// read), so a client reporting more than twice the server's longest cycle is timing itself.
// Runs wrk and h2load flat out at 200 connections against that server in turns.
import { execFileSync, spawn } from 'node:child_process';
import { h2loadOnPath, h2loadTool } from './h2load.js';
import { printTable, type LoadTool } from './lib.js';
import { wrkOnPath } from './wrk.js';

const SECONDS = 5;
const TURNS = 3;
const CONNECTIONS = 200;

const SERVER = `
const http = require('node:http');
const body = 'x'.repeat(386);
const last = new WeakMap();
let cycles = [];
const server = http.createServer((req, res) => {
  const now = performance.now();
  const prev = last.get(req.socket);
  if (prev !== undefined) cycles.push(now - prev);
  res.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-length': body.length });
  res.end(body);
  last.set(req.socket, performance.now());
});
server.listen(0, '127.0.0.1', () => process.stdout.write('listening ' + server.address().port + '\\n'));
process.on('message', () => {
  const v = Float64Array.from(cycles).sort();
  cycles = [];
  process.send({ p99: v[Math.floor(0.99 * (v.length - 1))], max: v[v.length - 1] });
});
`;

if (!h2loadOnPath() || !wrkOnPath()) {
  console.log('needs both h2load (apt-get install -y nghttp2-client) and wrk (apt-get install -y wrk)');
  process.exit(1);
}
const server = spawn(process.execPath, ['-e', SERVER], { stdio: ['ignore', 'pipe', 'inherit', 'ipc'] });
const port = await new Promise<string>((resolve) => server.stdout!.on('data', (c: Buffer) => resolve(/listening (\d+)/.exec(c.toString())![1]!)));
const url = `http://127.0.0.1:${port}/`;
const serverCycles = () =>
  new Promise<{ p99: number; max: number }>((resolve) => {
    server.once('message', (m) => resolve(m as { p99: number; max: number }));
    server.send('report');
  });

const rows: Array<Record<string, string | number>> = [];
try {
  for (let turn = 1; turn <= TURNS; turn++) {
    for (const tool of [wrkFlatOut(), h2loadTool(CONNECTIONS)]) {
      await serverCycles(); // drops what came before
      const series = tool.series(url);
      const round = await series.run(SECONDS);
      const { p50, p99 } = series.percentiles();
      const cycles = await serverCycles();
      rows.push({
        turn,
        tool: tool.name,
        'req/s': Math.round(round.requests / round.seconds),
        'client p50 ms': p50.toFixed(2),
        'client p99 ms': p99.toFixed(2),
        'server cycle p99 ms': cycles.p99.toFixed(2),
        'server cycle max ms': cycles.max.toFixed(1),
        'client p99 within 2 × max cycle': p99 <= 2 * cycles.max ? 'yes' : 'NO',
      });
    }
  }
  printTable(rows);
} finally {
  server.kill();
}

/** wrk flat out, with its own latency percentiles (the paced wrkTool adds a pause per request). */
function wrkFlatOut(): LoadTool {
  return {
    name: 'wrk -t1',
    series(target) {
      let latest = { p50: NaN, p99: NaN };
      return {
        async run(seconds) {
          const out = execFileSync('wrk', ['-t1', `-c${CONNECTIONS}`, `-d${seconds}s`, '--latency', target], { encoding: 'utf8' });
          const ms = (label: string) => toMs(new RegExp(`^\\s+${label}%\\s+([\\d.]+)(us|ms|s)$`, 'm').exec(out));
          latest = { p50: ms('50'), p99: ms('99') };
          if (Number.isNaN(latest.p99)) throw new Error(`wrk printed no latency distribution:\n${out}`);
          const requests = Number(/(\d+) requests in/.exec(out)![1]);
          return { requests, seconds, errors: 0, non2xx: 0, p99: latest.p99 };
        },
        percentiles: () => latest,
      };
    },
  };
}

function toMs(m: RegExpExecArray | null): number {
  if (!m) return NaN;
  const scale = { us: 0.001, ms: 1, s: 1000 }[m[2] as 'us' | 'ms' | 's'];
  return Number(m[1]) * scale;
}
