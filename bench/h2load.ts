// h2load (nghttp2's load tool, C, from Debian's nghttp2-client) as the load generator of the GET
// rows of npm run bench:api: one thread, HTTP/1.1, and a log line per request (status and µs from
// request to the end of the response), so a row's rounds merge into percentiles over all of its
// requests. It replaced wrk here: on this machine wrk reported a tail (1–3 % of requests at
// 50–600 ms) against a bare node:http server whose own clock showed no request cycle over 23 ms,
// while h2load's latencies matched the server's (docs/hardening.md, "Load").
import { execFile, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import readline from 'node:readline';
import { promisify } from 'node:util';
import { Histogram, type LoadTool, type Round } from './lib.js';

const run = promisify(execFile);

export function h2loadOnPath(): boolean {
  return spawnSync('h2load', ['--version']).error === undefined;
}

/**
 * h2load --h1 -t1 at `connections`, each sending its next request as soon as the answer is in; a
 * connection silent for 10 s (autocannon's default timeout) ends with an error.
 */
export function h2loadTool(connections: number): LoadTool {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'switchboard-h2load-'));
  process.once('exit', () => fs.rmSync(dir, { recursive: true, force: true }));
  let runs = 0;
  return {
    name: 'h2load -t1',
    series(url) {
      const merged = new Histogram();
      return {
        async run(seconds) {
          const log = path.join(dir, `run-${runs++}.tsv`);
          const args = ['--h1', '-t1', `-c${connections}`, `-D${seconds}`, '-N10', `--log-file=${log}`, url];
          const { stdout } = await run('h2load', args, { maxBuffer: 16 * 1024 * 1024 });
          const latency = await readLog(log);
          fs.rmSync(log, { force: true });
          const round = parseSummary(stdout, latency.total());
          merged.addAll(latency);
          return { ...round, p99: latency.percentile(99) / 1000 };
        },
        percentiles: () => ({ p50: merged.percentile(50) / 1000, p99: merged.percentile(99) / 1000 }),
      };
    },
  };
}

/**
 * The counts h2load prints. Its "failed" includes answers with a status of 400 or more; what it
 * counts beyond those (refused or cut connections, timeouts) are the row's errors.
 */
function parseSummary(stdout: string, logged: number): Omit<Round, 'p99'> {
  const finished = /finished in ([\d.]+)(ms|s),/.exec(stdout);
  const requests = /requests: (\d+) total, (\d+) started, (\d+) done, (\d+) succeeded, (\d+) failed, (\d+) errored, (\d+) timeout/.exec(stdout);
  const statuses = /status codes: (\d+) 2xx, (\d+) 3xx, (\d+) 4xx, (\d+) 5xx/.exec(stdout);
  if (!finished || !requests || !statuses) throw new Error(`h2load printed no summary:\n${stdout}`);
  const [done, failed] = [3, 5].map((i) => Number(requests[i])) as [number, number];
  const [s2, s3, s4, s5] = statuses.slice(1).map(Number) as [number, number, number, number];
  // Every answered request has its log line; checked so that none escapes the percentiles.
  if (logged < s2 + s3 + s4 + s5) throw new Error(`h2load counted ${s2 + s3 + s4 + s5} answers but logged ${logged}`);
  return {
    requests: done,
    seconds: Number(finished[1]) / (finished[2] === 'ms' ? 1000 : 1),
    errors: failed - s4 - s5,
    non2xx: s3 + s4 + s5,
  };
}

/** The log's third column: µs from the request to the end of its response. */
async function readLog(file: string): Promise<Histogram> {
  const histogram = new Histogram();
  const lines = readline.createInterface({ input: fs.createReadStream(file), crlfDelay: Infinity });
  for await (const line of lines) {
    const us = Number(line.slice(line.lastIndexOf('\t') + 1));
    if (line !== '' && Number.isFinite(us)) histogram.add(us, 1);
  }
  return histogram;
}
