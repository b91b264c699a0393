import fs from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { appVersion } from '../../../main/infra/app-version.js';
import { ManualClock } from '../../../main/infra/clock.js';
import { startTestApp, type TestApp } from '../../helpers/app.js';
import { startFakeFeed, type FakeFeed } from '../../fixtures/fake-feed-server.js';

/** GET /api/proxy/update-check (decisions §4): feed, 1-hour cache, offline fallbacks, never 5xx. */
const clock = new ManualClock(Date.UTC(2026, 0, 1));
let feed: FakeFeed;
let app: TestApp;
const current = appVersion();

async function writeAppConfig(feedUrl: string, binary = '') {
  await fs.writeFile(path.join(app.home, 'config.yaml'), `proxy:\n  update_feed_url: ${feedUrl}\n${binary}`);
}
const check = () => app.json('GET', '/api/proxy/update-check');

beforeAll(async () => {
  feed = await startFakeFeed({ tag_name: 'v99.1.0-3', name: 'release', draft: false });
  app = await startTestApp({ clock });
  await writeAppConfig(feed.url);
});
afterAll(async () => {
  await app.stop();
  await feed.close();
});

describe('update check', () => {
  it('does not compare the built-in engine with the default CLIProxyAPIPlus feed, and asks nobody', async () => {
    await fs.writeFile(path.join(app.home, 'config.yaml'), 'proxy:\n  binary_path: ""\n');
    const realFetch = globalThis.fetch;
    // Only the app itself may be called; anything else is refused before it leaves the machine.
    const spy = vi.spyOn(globalThis, 'fetch').mockImplementation((input, init) =>
      String(input).startsWith(app.url) ? realFetch(input, init) : Promise.reject(new Error('no network in tests')),
    );
    try {
      expect(await check()).toEqual({ status: 200, body: { hasUpdate: false, currentVersion: current, latestVersion: current, fromCache: false } });
      expect(spy.mock.calls.filter(([url]) => !String(url).startsWith(app.url))).toEqual([]);
    } finally {
      spy.mockRestore();
      await writeAppConfig(feed.url);
    }
  });

  it('reads the feed, then answers from the 1-hour cache, then reads the feed again', async () => {
    expect(await check()).toEqual({ status: 200, body: { hasUpdate: true, currentVersion: current, latestVersion: '99.1.0-3', fromCache: false } });
    expect(feed.hits).toBe(1);
    const cache = JSON.parse(await fs.readFile(path.join(app.home, '.cache', 'update-check.json'), 'utf8'));
    expect(cache).toEqual({ feedUrl: feed.url, latestVersion: '99.1.0-3', checkedAt: Date.UTC(2026, 0, 1) });

    clock.advance(59 * 60_000);
    expect((await check()).body).toEqual({ hasUpdate: true, currentVersion: current, latestVersion: '99.1.0-3', fromCache: true });
    expect(feed.hits).toBe(1);

    feed.answer = { status: 200, body: JSON.stringify({ tag_name: 'v0.0.1' }) };
    clock.advance(2 * 60_000);
    expect((await check()).body).toEqual({ hasUpdate: false, currentVersion: current, latestVersion: '0.0.1', fromCache: false });
    expect(feed.hits).toBe(2);
  });

  it('falls back to the last cached answer, however old, when the feed fails', async () => {
    feed.answer = { status: 200, body: JSON.stringify({ tag_name: 'v50.0.0' }) };
    clock.advance(61 * 60_000);
    await check();
    clock.advance(5 * 60 * 60_000);
    feed.answer = { status: 500, body: 'upstream sad' };
    expect(await check()).toEqual({ status: 200, body: { hasUpdate: true, currentVersion: current, latestVersion: '50.0.0', fromCache: true } });
    feed.answer = { status: 200, body: '<html>not json</html>' };
    expect((await check()).body.fromCache).toBe(true);
    feed.answer = { status: 200, body: JSON.stringify({ name: 'no tag here' }) };
    expect((await check()).body.fromCache).toBe(true);
  });

  it('compares the external binary version including its -N build suffix', async () => {
    feed.answer = { status: 200, body: JSON.stringify({ tag_name: 'v7.2.127-21' }) };
    await writeAppConfig(feed.url, '  binary_path: /opt/cli-proxy-api-plus\n  binary_version: 7.2.127-11\n');
    clock.advance(2 * 60 * 60_000);
    expect((await check()).body).toEqual({ hasUpdate: true, currentVersion: '7.2.127-11', latestVersion: '7.2.127-21', fromCache: false });
    await writeAppConfig(feed.url, '  binary_path: /opt/cli-proxy-api-plus\n  binary_version: v7.2.127-21\n');
    expect((await check()).body).toEqual({ hasUpdate: false, currentVersion: '7.2.127-21', latestVersion: '7.2.127-21', fromCache: true });
  });

  it('picks the highest release of a list feed, skipping drafts and prereleases', async () => {
    const listUrl = feed.url.replace('/latest', '');
    feed.answer = {
      status: 200,
      body: JSON.stringify([
        { tag_name: 'v7.2.127-21' },
        { tag_name: 'v7.2.128-1', prerelease: true },
        { tag_name: 'v7.2.127-30', draft: true },
        { tag_name: 'v7.2.127' },
      ]),
    };
    await writeAppConfig(listUrl);
    expect((await check()).body).toMatchObject({ latestVersion: '7.2.127-21', fromCache: false });
  });

  it('offline with nothing cached: no update, latest = current, not from cache', async () => {
    const closed = await startFakeFeed({});
    await closed.close();
    await writeAppConfig(closed.url);
    expect(await check()).toEqual({ status: 200, body: { hasUpdate: false, currentVersion: current, latestVersion: current, fromCache: false } });
  });

  it('never answers 5xx, even with a config.yaml it cannot read', async () => {
    await fs.writeFile(path.join(app.home, 'config.yaml'), 'proxy: [broken');
    expect(await check()).toEqual({ status: 200, body: { hasUpdate: false, currentVersion: current, latestVersion: current, fromCache: false } });
  });
});
