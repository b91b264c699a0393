// One measurement of `npm run bench:usage` in its own process, run from the compiled copy
// (bench/usage-build.ts). Prints one JSON line on stdout. Modules are imported per mode so a
// start-up measurement loads only what it measures.
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import type { Clock } from '../main/infra/clock.js';
import type { UsageService } from '../main/services/usage/usage-service.js';

const [mode, corpus, home, ...rest] = process.argv.slice(2) as [string, string, string, ...string[]];
const print = (o: unknown) => process.stdout.write(JSON.stringify(o) + '\n');

async function service(clock: Clock, options: { watch?: boolean } = {}): Promise<UsageService> {
  const [{ createPaths }, { silentLogger }, { AppConfigStore }, { AppEvents }, { UsageService }] = await Promise.all([
    import('../main/infra/paths.js'),
    import('../main/infra/logger.js'),
    import('../main/services/app-config/store.js'),
    import('../main/services/events.js'),
    import('../main/services/usage/usage-service.js'),
  ]);
  const paths = createPaths({ configDir: home, agentDir: corpus });
  const ctx = { paths, clock, logger: silentLogger, events: new AppEvents(), appConfig: new AppConfigStore(paths.appConfig), env: process.env };
  const s = new UsageService(ctx);
  s.start(options);
  return s;
}

async function startApp(onListening?: (url: string) => void) {
  const [{ startSwitchboard }, { silentLogger }] = await Promise.all([import('../main/api/runtime.js'), import('../main/infra/logger.js')]);
  return startSwitchboard({ homes: { configDir: home, agentDir: corpus }, port: 0, logger: silentLogger, env: process.env, onListening, scanUsageAtStart: true });
}

/** node:http rather than fetch: Node 20 loads undici on the first fetch, tens of ms this would time. */
function get(url: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    http
      .get(url, { agent: false }, (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (c: string) => (body += c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
      })
      .on('error', reject);
  });
}

const SUMMARY = '/api/usage/summary?tz=UTC';

if (mode === 'cold') {
  // No disk cache in `home`: the first answer waits for a full scan.
  const { systemClock } = await import('../main/infra/clock.js');
  const s = await service(systemClock);
  const t0 = performance.now();
  const summary = await s.summary({ tz: 'UTC' });
  const scanMs = performance.now() - t0;
  // Writing the disk cache is part of the work (the process time includes it), after the answer.
  await s.whenPersisted();
  const persistMs = performance.now() - t0 - scanMs;
  await s.stop();
  print({ scanMs, persistMs, totalTokens: summary.totalTokens, report: s.lastScan(), rssMiB: process.resourceUsage().maxRSS / 1024 });
} else if (mode === 'refresh') {
  // Warm state from the disk cache, then: append 1 MiB, time until the new data is answered.
  const [appendFile, target, runsText] = rest as [string, string, string];
  const { ManualClock } = await import('../main/infra/clock.js');
  const clock = new ManualClock(Date.now());
  const s = await service(clock);
  const stale = async () => {
    clock.advance(61_000);
    await s.summary({ tz: 'UTC' });
    await s.whenIdle();
    await s.whenPersisted();
  };
  await stale();
  const chunk = fs.readFileSync(appendFile);
  const original = fs.statSync(target).size;
  const runs: number[] = [];
  let bytesRead = 0;
  try {
    for (let i = 0; i < Number(runsText); i++) {
      fs.appendFileSync(target, chunk);
      clock.advance(61_000);
      const t0 = performance.now();
      await s.summary({ tz: 'UTC' }); // stale: answered at once, one background scan starts
      await s.whenIdle();
      await s.summary({ tz: 'UTC' }); // the new data, aggregated again
      runs.push(performance.now() - t0);
      bytesRead = s.lastScan()?.bytesRead ?? 0;
      fs.truncateSync(target, original);
      await stale();
    }
  } finally {
    fs.truncateSync(target, original);
  }
  print({ runs, bytesRead, rssMiB: process.resourceUsage().maxRSS / 1024 });
  await s.stop();
} else if (mode === 'refresh-agents') {
  // Every agent (their folders from the environment): a full scan, the disk cache written, then
  // per run one line appended to a file (a codex session and a Claude transcript in turn, each
  // time its own last line again), timed until the new data is answered: an incremental
  // refresh and the daily read. Each file is cut back and rescanned between runs (not timed).
  const [codexFile, claudeFile, runsText] = rest as [string, string, string];
  const { systemClock } = await import('../main/infra/clock.js');
  // As `serve` and the app run it: directory watches (BENCH_NO_WATCH=1: a walk per refresh, as before them).
  const s = await service(systemClock, { watch: process.env.BENCH_NO_WATCH !== '1' });
  const t0 = performance.now();
  await s.refresh();
  const firstScanMs = performance.now() - t0;
  const t1 = performance.now();
  await s.whenIdle(); // the watches armed
  const armMs = performance.now() - t1;
  const t2 = performance.now();
  await s.refresh(); // the walk after arming (the app's next background refresh)
  const walkMs = performance.now() - t2;
  await s.whenPersisted();
  const targets = [codexFile, claudeFile].map((file) => {
    const text = fs.readFileSync(file, 'utf8');
    const lines = text.trimEnd().split('\n');
    return { file, size: Buffer.byteLength(text), line: lines[lines.length - 1] + '\n' };
  });
  /** Appends the target's line, then times the refresh and the daily answer that sees it. */
  const appendTimed = async (target: (typeof targets)[number]): Promise<number> => {
    fs.appendFileSync(target.file, target.line);
    const t1 = performance.now();
    await s.refresh();
    await s.daily({ tz: 'UTC' });
    return performance.now() - t1;
  };
  const runs: number[] = [];
  const growing: number[] = [];
  try {
    for (let i = 0; i < Number(runsText); i++) {
      const target = targets[i % targets.length]!;
      runs.push(await appendTimed(target));
      fs.truncateSync(target.file, target.size);
      await s.refresh();
      await s.whenPersisted();
    }
    // The same appends as a working session makes them: the files only grow (no cut back and
    // whole re-read between runs), the disk cache written after each as the app does a second later.
    for (let i = 0; i < Number(runsText); i++) {
      growing.push(await appendTimed(targets[i % targets.length]!));
      await s.whenPersisted();
    }
  } finally {
    for (const t of targets) fs.truncateSync(t.file, t.size);
  }
  print({ runs, growing, firstScanMs, armMs, walkMs, rssMiB: process.resourceUsage().maxRSS / 1024 });
  await s.stop();
} else if (mode === 'refresh-api') {
  // The dashboard's Refresh button on a warm app: append 1 MiB, then POST /api/usage/refresh
  // (incremental) and read the summary, timed together, through HTTP as the dashboard does.
  const [appendFile, target, runsText] = rest as [string, string, string];
  const app = await startApp();
  const post = (p: string) => fetch(app.url + p, { method: 'POST' }).then((r) => r.json() as Promise<{ success: boolean }>);
  await get(app.url + SUMMARY);
  await post('/api/usage/refresh');
  const chunk = fs.readFileSync(appendFile);
  const original = fs.statSync(target).size;
  const runs: number[] = [];
  let bytesRead = 0;
  try {
    for (let i = 0; i < Number(runsText); i++) {
      fs.appendFileSync(target, chunk);
      const t0 = performance.now();
      const done = await post('/api/usage/refresh');
      const summary = await get(app.url + SUMMARY);
      runs.push(performance.now() - t0);
      if (!done.success || summary.status !== 200) throw new Error('refresh failed');
      bytesRead = app.services.usage.lastScan()?.bytesRead ?? 0;
      fs.truncateSync(target, original);
      await post('/api/usage/refresh'); // reads the shrunk file again: not timed
    }
  } finally {
    fs.truncateSync(target, original);
  }
  print({ runs, bytesRead, rssMiB: process.resourceUsage().maxRSS / 1024 });
  await app.close();
} else if (mode === 'startup-service') {
  // The usage service alone: from its construction to the first answer out of the disk cache.
  const { systemClock } = await import('../main/infra/clock.js');
  const t0 = performance.now();
  const s = await service(systemClock);
  const t1 = performance.now();
  await s.summary({ tz: 'UTC' });
  print({ serviceToAnswerMs: performance.now() - t1, importsMs: t1 - t0 });
  await s.stop();
} else if (mode === 'startup') {
  // The whole app, as `switchboard serve` starts it: a summary read sent the moment the port
  // listens, timed from process start to its answer. Then what a dashboard session does (the
  // refresh a stale answer starts, two more reads) and a normal quit, which saves the answers
  // the next start serves (api/warm-answers.ts). `saved` says whether this start had them.
  const saved = fs.existsSync(path.join(home, '.cache', 'usage-answers.json'));
  let first!: Promise<{ status: number; body: string; at: number }>;
  const app = await startApp((url) => {
    first = get(url + SUMMARY).then((r) => ({ ...r, at: performance.now() }));
  });
  const answer = await first;
  await app.services.usage.whenIdle();
  await get(app.url + SUMMARY);
  await get(app.url + SUMMARY);
  print({ firstAnswerMs: answer.at, status: answer.status, totalTokens: JSON.parse(answer.body).totalTokens, saved });
  if (process.env.BENCH_STARTUP_NO_QUIT === '1') process.exit(0); // an empty-dir start: nothing to save
  await app.close();
} else if (mode === 'floor') {
  // The same measurement with nothing of the app: a node:http server answering a fixed body,
  // asked the moment it listens. What Node itself costs to start here, in the same run.
  const server = http.createServer((_req, res) => res.writeHead(200, { 'Content-Type': 'application/json' }).end('{}'));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const answer = await get(`http://127.0.0.1:${(server.address() as { port: number }).port}/`);
  print({ firstAnswerMs: performance.now(), status: answer.status });
  server.close();
} else if (mode === 'serve') {
  const app = await startApp();
  await fetch(`${app.url}/api/usage/summary?tz=UTC`);
  print({ url: app.url });
  process.on('SIGTERM', () => void app.close().then(() => process.exit(0)));
} else {
  throw new Error(`unknown mode ${mode}`);
}
