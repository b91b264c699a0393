// npm run bench:api — load on cached usage endpoints, settings reads and concurrent profile writes
// at 200 connections on loopback (issue 9). BENCH_API_SECONDS shortens the runs. The baseline,
// measured in the same run, is plain node:http answering the same summary body: the ceiling of
// any Node server on this machine, against which the app's rows are given as ratios.
import { execFileSync, spawn } from 'node:child_process';
import path from 'node:path';
import { load, printTable, serveFromSources, type LoadResult } from './lib.js';

const seconds = Number(process.env.BENCH_API_SECONDS ?? 30);
const connections = 200;

const app = await serveFromSources(async ({ agentDir }) => {
  execFileSync(process.execPath, [path.resolve('../shared/tools/gen-usage.mjs'), '--out', agentDir, '--bytes', '20MB', '--seed', '3', '--quiet']);
});
try {
  const put = (body: unknown) =>
    fetch(`${app.url}/api/settings/bench`, { method: 'PUT', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  await put({ settings: { env: { PROVIDER_BASE_URL: 'http://127.0.0.1:8317', PROVIDER_AUTH_TOKEN: 'sk-bench-token', PROVIDER_MODEL: 'claude-sonnet-4-5' } } });
  const summary = await (await fetch(`${app.url}/api/usage/summary`)).text(); // fills the cache: the runs below measure cached reads
  const rows: LoadResult[] = [];
  const bare = spawn(process.execPath, ['bench/bare-server.mjs', summary], { stdio: ['ignore', 'pipe', 'inherit'] });
  const barePort = await new Promise<string>((resolve) => bare.stdout!.on('data', (c: Buffer) => resolve(/listening (\d+)/.exec(c.toString())![1]!)));
  rows.push(await load('baseline: node:http, same body', { url: `http://127.0.0.1:${barePort}/`, connections, duration: seconds }));
  bare.kill('SIGTERM');
  for (const p of ['/api/usage/summary', '/api/usage/daily', '/api/usage/models', '/api/settings/bench', '/api/profiles']) {
    rows.push(await load(`GET ${p}`, { url: app.url + p, connections, duration: seconds }));
  }
  let n = 0;
  rows.push(
    await load('PUT /api/settings/bench (20 conn)', {
      url: `${app.url}/api/settings/bench`,
      connections: 20,
      duration: Math.max(5, Math.round(seconds / 3)),
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      setupClient: (client) => {
        client.setBody(JSON.stringify({ settings: { env: { PROVIDER_MODEL: `m-${n++}` } } }));
      },
    }),
  );
  const base = rows[0]!;
  printTable(
    rows.map((r) => ({
      route: r.name,
      'req/s': r.rps,
      'vs baseline': `${Math.round((100 * r.rps) / base.rps)}%`,
      'p50 ms': r.p50,
      'p99 ms': r.p99,
      errors: r.errors,
      non2xx: r.non2xx,
      total: r.requests,
    })),
  );
} finally {
  await app.stop();
}
