import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startSwitchboard, type RunningSwitchboard } from '../../../main/api/runtime.js';
import { ManualClock } from '../../../main/infra/clock.js';
import { createLogger } from '../../../main/infra/logger.js';
import { createPaths } from '../../../main/infra/paths.js';
import { STALE_LIMIT_MS } from '../../../main/services/usage/freshness.js';
import { assistantLine } from '../../fixtures/usage/lines.js';
import { writeOfflineConfig } from '../../helpers/offline-config.js';
import { rawRequest } from '../../helpers/raw-http.js';

// Usage answers saved beside the usage disk cache are served by the next start before its
// modules load (main/api/warm-answers.ts), and only while they belong to that cache.
const T0 = Date.UTC(2026, 0, 10, 12, 30);
const URL_UTC = '/api/usage/summary?tz=UTC';
let dirs: { configDir: string; agentDir: string };
let running: RunningSwitchboard | null = null;

afterEach(async () => {
  await running?.close();
  running = null;
  await fs.rm(path.dirname(dirs.configDir), { recursive: true, force: true });
});

async function makeHome(): Promise<void> {
  const root = await fs.mkdtemp(path.join(os.tmpdir(), 'switchboard-warm-'));
  dirs = { configDir: path.join(root, 'home'), agentDir: path.join(root, 'agent') };
  await fs.mkdir(path.join(dirs.agentDir, 'projects', 'p'), { recursive: true });
  await fs.writeFile(path.join(dirs.agentDir, 'projects', 'p', 's.jsonl'), assistantLine({ msg: 'a', req: 'ra', ts: '2026-01-09T09:00:00.000Z', input: 100, output: 10 }) + '\n');
  await writeOfflineConfig(dirs.configDir);
}

/** Starts the app; `first` is what a read sent the moment the port listens got back. */
async function start(clock: ManualClock, logs: string[] = []) {
  let first!: Promise<{ status: number; body: string }>;
  running = await startSwitchboard({
    homes: dirs,
    port: 0,
    clock,
    logger: createLogger('warn', (l) => logs.push(l)),
    env: { ...process.env, HOME: dirs.configDir },
    onListening: (url) => {
      first = rawRequest(Number(new URL(url).port), 'GET', URL_UTC);
    },
  });
  return { first: await first };
}

/** A run that answers two reads (the second is remembered) and saves on close. */
async function runOnce(clock: ManualClock): Promise<string> {
  await start(clock);
  await rawRequest(running!.port, 'GET', URL_UTC);
  const answer = (await rawRequest(running!.port, 'GET', URL_UTC)).body;
  await running!.close();
  running = null;
  return answer;
}

const answersFile = () => createPaths(dirs).usageAnswers;

/** Replaces every saved answer by `{marker}`; gives the saved file as now written. */
async function markSavedAnswer(marker: string): Promise<{ build: string; answers: unknown[] }> {
  const saved = JSON.parse(await fs.readFile(answersFile(), 'utf8'));
  saved.answers = saved.answers.map(([url]: [string, string]) => [url, JSON.stringify({ marker })]);
  await fs.writeFile(answersFile(), JSON.stringify(saved));
  return saved;
}

describe('warm answers', () => {
  it('are saved on close with the usage cache they came from, mode 0600', async () => {
    await makeHome();
    const answer = await runOnce(new ManualClock(T0));
    const saved = JSON.parse(await fs.readFile(answersFile(), 'utf8'));
    const cache = await fs.stat(createPaths(dirs).usageCache);
    expect(saved.answers).toEqual([[URL_UTC, answer]]);
    expect(saved.cache).toEqual({ size: cache.size, mtimeMs: cache.mtimeMs, ino: cache.ino, lastFetch: T0 });
    expect((await fs.stat(answersFile())).mode & 0o777).toBe(0o600);
    expect(JSON.parse(answer).inputTokens).toBe(100);
  });

  it('are what the next start answers at once, until the app runs', async () => {
    await makeHome();
    const clock = new ManualClock(T0);
    await runOnce(clock);
    await markSavedAnswer('saved');
    clock.advance(120_000); // stale: served at once, and a refresh starts
    const { first } = await start(clock);
    expect(first).toMatchObject({ status: 200, body: '{"marker":"saved"}' });
    // Once the app runs, the service answers (the saved answers are gone).
    expect(JSON.parse((await rawRequest(running!.port, 'GET', URL_UTC)).body).inputTokens).toBe(100);
    await running!.services.usage.whenIdle();
    expect((await running!.services.usage.status()).lastFetch).toBe(T0 + 120_000);
  });

  it('are not used once the usage cache was written again', async () => {
    await makeHome();
    const clock = new ManualClock(T0);
    await runOnce(clock);
    await markSavedAnswer('saved');
    const cache = createPaths(dirs).usageCache;
    const bytes = await fs.readFile(cache);
    await fs.rm(cache);
    await fs.writeFile(cache, bytes); // same bytes, another file
    const { first } = await start(clock);
    expect(JSON.parse(first.body).inputTokens).toBe(100);
  });

  it('are not used when the data is past the 7-day stale limit (that read waits for a scan)', async () => {
    await makeHome();
    const clock = new ManualClock(T0);
    await runOnce(clock);
    await markSavedAnswer('saved');
    clock.advance(STALE_LIMIT_MS);
    const { first } = await start(clock);
    expect(JSON.parse(first.body).inputTokens).toBe(100);
  });

  it('are not used once config.yaml changed while the app was closed (a default cost mode or zone may have)', async () => {
    await makeHome();
    const clock = new ManualClock(T0);
    await runOnce(clock);
    await markSavedAnswer('saved');
    const config = createPaths(dirs).appConfig;
    await fs.appendFile(config, '\nusage:\n  cost_mode: display\n');
    const { first } = await start(clock);
    expect(JSON.parse(first.body)).not.toEqual({ marker: 'saved' });
    expect(JSON.parse(first.body).inputTokens).toBe(100);
  });

  it('are not used by another build (app version or price table)', async () => {
    await makeHome();
    const clock = new ManualClock(T0);
    await runOnce(clock);
    const saved = await markSavedAnswer('saved');
    expect(saved.build).toMatch(/^\d+\.\d+\.\d+\S* \S+ usage-cache-11$/);
    const [, prices, format] = saved.build.split(' ');
    await fs.writeFile(answersFile(), JSON.stringify({ ...saved, build: `0.0.0-older ${prices} ${format}` }));
    const { first } = await start(clock);
    expect(JSON.parse(first.body).inputTokens).toBe(100);
  });

  // A source checkout keeps its build name ("<version>+source") across code changes, so the
  // cache format in the build is what drops the answers an older counting computed.
  it('are not used when saved by a build of another disk cache format (another counting)', async () => {
    await makeHome();
    const clock = new ManualClock(T0);
    await runOnce(clock);
    const saved = await markSavedAnswer('saved');
    const [version, prices] = saved.build.split(' ');
    for (const build of [`${version} ${prices}`, `${version} ${prices} usage-cache-6`]) {
      await fs.writeFile(answersFile(), JSON.stringify({ ...saved, build }));
      const { first } = await start(clock);
      expect(JSON.parse(first.body).inputTokens).toBe(100);
      await running!.close();
      running = null;
    }
  });

  it('a damaged file is ignored with a warning', async () => {
    await makeHome();
    await runOnce(new ManualClock(T0));
    await fs.writeFile(answersFile(), '{"format":"switchboard-usage-answers","version":1,"answers":[[1,2]]');
    const logs: string[] = [];
    const { first } = await start(new ManualClock(T0), logs);
    expect(JSON.parse(first.body).inputTokens).toBe(100);
    expect(logs.join('')).toContain('ignoring a damaged saved-answers file');
  });

  it('only lasting answers are saved: not hourly (follows the clock), not the default zone', async () => {
    await makeHome();
    await start(new ManualClock(T0));
    for (const url of ['/api/usage/hourly?tz=UTC', '/api/usage/summary', '/api/usage/daily?tz=Asia/Tokyo']) {
      await rawRequest(running!.port, 'GET', url);
      await rawRequest(running!.port, 'GET', url);
    }
    await running!.close();
    running = null;
    const saved = JSON.parse(await fs.readFile(answersFile(), 'utf8'));
    expect(saved.answers.map(([url]: [string]) => url)).toEqual(['/api/usage/daily?tz=Asia/Tokyo']);
  });
});


describe('reads that arrive while the app loads', () => {
  it('without saved answers, wait for the disk cache instead of scanning every log', async () => {
    await makeHome();
    const clock = new ManualClock(T0);
    await runOnce(clock);
    await fs.rm(answersFile());
    // Logs grew since; the cache is 10 s old and fresh, so its answer is the one a read gets.
    await fs.appendFile(path.join(dirs.agentDir, 'projects', 'p', 's.jsonl'), assistantLine({ msg: 'b', req: 'rb', ts: '2026-01-10T09:00:00.000Z', input: 5, output: 1 }) + '\n');
    clock.advance(10_000);
    const { first } = await start(clock);
    expect(JSON.parse(first.body).inputTokens).toBe(100);
  });
});
