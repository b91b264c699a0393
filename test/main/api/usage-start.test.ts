import fs from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { startTestApp, type TestApp } from '../../helpers/app.js';
import { assistantLine } from '../../fixtures/usage/lines.js';

// `serve` and the desktop app start the first scan with the app when there is no disk cache
// (issue 20: the first figures come sooner); with a cache the start only loads it.
let app: TestApp | undefined;
afterEach(async () => {
  await app?.stop();
  app = undefined;
});

const line = assistantLine({ msg: 'a', req: 'ra', ts: '2026-01-08T09:00:00.000Z', input: 1000, output: 100 });
const withLogs = async ({ agentDir }: { agentDir: string }) => {
  await fs.mkdir(path.join(agentDir, 'projects', 'p'), { recursive: true });
  await fs.writeFile(path.join(agentDir, 'projects', 'p', 's.jsonl'), line + '\n');
};

describe('the first usage scan at start-up', () => {
  it('without a disk cache, scans and writes the cache with no usage read asked', async () => {
    app = await startTestApp({ scanUsageAtStart: true, before: withLogs });
    const status = async () => (await app!.json('GET', '/api/usage/status')).body as { cached: boolean; files: number | null };
    await vi.waitFor(async () => expect(await status()).toMatchObject({ cached: true, files: 1 }), { timeout: 60_000, interval: 50 });
    await app.services.usage.whenPersisted();
    await fs.stat(app.services.ctx.paths.usageCache);
    expect((await app.json('GET', '/api/usage/summary?tz=UTC')).body).toMatchObject({ inputTokens: 1000, outputTokens: 100 });
  });

  it('with a disk cache, only loads it: no scan until data is due', async () => {
    app = await startTestApp({ scanUsageAtStart: true, before: withLogs });
    await vi.waitFor(async () => expect((await app!.json('GET', '/api/usage/status')).body.cached).toBe(true), { timeout: 60_000, interval: 50 });
    await app.services.usage.whenPersisted();
    const { home, agentDir } = app;
    const lastFetch = (await app.json('GET', '/api/usage/status')).body.lastFetch as number;
    await app.close(); // keeps the temp dirs (stop() in afterEach removes them)
    // A restart on the same home: the cache answers; no scan is running after the start.
    const { startSwitchboard } = await import('../../../main/api/runtime.js');
    const { silentLogger } = await import('../../../main/infra/logger.js');
    const again = await startSwitchboard({ homes: { configDir: home, agentDir }, port: 0, logger: silentLogger, scanUsageAtStart: true, env: { ...process.env, HOME: home } });
    try {
      const res = await fetch(`${again.url}/api/usage/status`);
      expect(await res.json()).toMatchObject({ cached: true, lastFetch, scanning: false });
    } finally {
      await again.close();
    }
  });

  it('API test apps keep the old rule: nothing is scanned before a read', async () => {
    app = await startTestApp({ before: withLogs });
    expect((await app.json('GET', '/api/usage/status')).body).toMatchObject({ cached: false, scanning: false });
  });
});

describe('a first scan that fails', () => {
  it('status says why (lastError) and is not left "scanning"; a later good scan clears it', async () => {
    app = await startTestApp({
      scanUsageAtStart: true,
      before: async ({ agentDir }) => {
        await fs.writeFile(path.join(agentDir, 'projects'), 'a file where the projects folder should be');
      },
    });
    const status = async () => (await app!.json('GET', '/api/usage/status')).body as { cached: boolean; scanning: boolean; lastError: string | null };
    await vi.waitFor(async () => expect((await status()).lastError).toMatch(/ENOTDIR|not a directory/i), { timeout: 60_000, interval: 50 });
    expect(await status()).toMatchObject({ cached: false, scanning: false });
    const read = await app.json('GET', '/api/usage/summary?tz=UTC');
    expect(read.status).toBe(503);

    await fs.rm(path.join(app.agentDir, 'projects'));
    await withLogs({ agentDir: app.agentDir });
    expect((await app.json('POST', '/api/usage/refresh')).status).toBe(200);
    expect(await status()).toMatchObject({ cached: true, scanning: false, lastError: null });
  });
});
