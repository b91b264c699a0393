import { execFileSync } from 'node:child_process';
import fs from 'node:fs/promises';
import path from 'node:path';
import autocannon from 'autocannon';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../helpers/app.js';

/**
 * The CI-sized version of `npm run bench:api`: cached reads under concurrent load answer without
 * a single error, and concurrent profile writes lose nothing. A fixed number of requests, not a
 * duration, and no latency bound: on a busy machine speed varies, correctness must not; the
 * bench reports the real figures.
 */
const REQUESTS = 400;

const generator = path.resolve(__dirname, '../../../scripts/gen-usage.mjs');

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp({
    before: async ({ agentDir }) => {
      execFileSync(process.execPath, [generator, '--out', agentDir, '--bytes', '1MB', '--seed', '11', '--quiet']);
    },
  });
  const put = await app.json('PUT', '/api/settings/load', {
    settings: { env: { PROVIDER_BASE_URL: 'http://127.0.0.1:8317', PROVIDER_AUTH_TOKEN: 'tok-load-123456', PROVIDER_MODEL: 'm' } },
  });
  expect(put.status).toBe(200);
  expect((await app.json('GET', '/api/usage/summary')).status).toBe(200);
}, 180_000);
afterAll(() => app?.stop());

async function hammer(urlPath: string) {
  // 60 s per request: a request only times out if the server stopped answering it.
  return autocannon({ url: app.url + urlPath, connections: 50, amount: REQUESTS, timeout: 60 });
}

describe('load', () => {
  for (const route of ['/api/usage/summary', '/api/usage/daily', '/api/settings/load', '/api/profiles']) {
    it(`serves ${route} at 50 connections without errors`, async () => {
      const r = await hammer(route);
      expect(r.errors + r.timeouts).toBe(0);
      expect(r.non2xx).toBe(0);
      expect(r['2xx']).toBe(REQUESTS);
    }, 300_000);
  }

  it('keeps every concurrent profile write whole: the file ends as one of the versions sent', async () => {
    const versions = Array.from({ length: 40 }, (_, i) => ({ env: { PROVIDER_MODEL: `model-${i}`, PROVIDER_AUTH_TOKEN: `tok-${i}-abcdefgh` } }));
    const answers = await Promise.all(versions.map((settings) => app.json('PUT', '/api/settings/load', { settings })));
    expect(answers.map((a) => a.status)).toEqual(versions.map(() => 200));
    const stored = JSON.parse(await fs.readFile(path.join(app.home, 'load.settings.json'), 'utf8'));
    expect(versions.map((v) => v.env.PROVIDER_MODEL)).toContain(stored.env.PROVIDER_MODEL);
    const winner = versions.find((v) => v.env.PROVIDER_MODEL === stored.env.PROVIDER_MODEL)!;
    expect(stored.env.PROVIDER_AUTH_TOKEN).toBe(winner.env.PROVIDER_AUTH_TOKEN);
    const leftovers = (await fs.readdir(app.home)).filter((n) => n.endsWith('.tmp'));
    expect(leftovers).toEqual([]);
  }, 120_000);
});
