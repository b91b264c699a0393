import fs from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { appVersion } from '../../../main/infra/app-version.js';
import { ManualClock } from '../../../main/infra/clock.js';
import { startTestApp, type TestApp } from '../../helpers/app.js';
import { startFakeFeed, unreachableFeedUrl, type FakeFeed } from '../../fixtures/fake-feed-server.js';
import { BUILTIN_NOT_CHECKED } from '../../../main/services/proxy/update-check.js';

/** GET /api/proxy/update-check (decisions §4): feed, 1-hour cache, offline fallbacks, never 5xx. */
const clock = new ManualClock(Date.UTC(2026, 0, 1));
let feed: FakeFeed;
let app: TestApp;
const current = appVersion();

async function writeAppConfig(feedUrl: string, binary = '') {
  await fs.writeFile(path.join(app.home, 'config.yaml'), `proxy:\n  update_feed_url: ${feedUrl}\n${binary}`);
}
const check = (query = '') => app.json('GET', `/api/proxy/update-check${query}`);
const T0 = Date.UTC(2026, 0, 1);

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
  it('does not compare the built-in engine with the default CLIProxyAPIPlus feed, asks nobody, and says it did not check', async () => {
    await fs.writeFile(path.join(app.home, 'config.yaml'), 'proxy:\n  binary_path: ""\n');
    const realFetch = globalThis.fetch;
    // Only the app itself may be called; anything else is refused before it leaves the machine.
    const spy = vi.spyOn(globalThis, 'fetch').mockImplementation((input, init) =>
      String(input).startsWith(app.url) ? realFetch(input, init) : Promise.reject(new Error('no network in tests')),
    );
    try {
      const notChecked = { hasUpdate: false, currentVersion: current, latestVersion: current, fromCache: false, checkedAt: null, error: BUILTIN_NOT_CHECKED };
      expect(await check()).toEqual({ status: 200, body: notChecked });
      expect(await check('?force=true')).toEqual({ status: 200, body: notChecked });
      expect(spy.mock.calls.filter(([url]) => !String(url).startsWith(app.url))).toEqual([]);
    } finally {
      spy.mockRestore();
      await writeAppConfig(feed.url);
    }
  });

  it('reads the feed, then answers from the 1-hour cache, then reads the feed again', async () => {
    expect(await check()).toEqual({ status: 200, body: { hasUpdate: true, currentVersion: current, latestVersion: '99.1.0-3', fromCache: false, checkedAt: T0 } });
    expect(feed.hits).toBe(1);
    const cache = JSON.parse(await fs.readFile(path.join(app.home, '.cache', 'update-check.json'), 'utf8'));
    expect(cache).toEqual({ feedUrl: feed.url, latestVersion: '99.1.0-3', checkedAt: Date.UTC(2026, 0, 1) });

    clock.advance(59 * 60_000);
    expect((await check()).body).toEqual({ hasUpdate: true, currentVersion: current, latestVersion: '99.1.0-3', fromCache: true, checkedAt: T0 });
    expect(feed.hits).toBe(1);

    feed.answer = { status: 200, body: JSON.stringify({ tag_name: 'v0.0.1' }) };
    clock.advance(2 * 60_000);
    expect((await check()).body).toEqual({ hasUpdate: false, currentVersion: current, latestVersion: '0.0.1', fromCache: false, checkedAt: T0 + 61 * 60_000 });
    expect(feed.hits).toBe(2);
  });

  it('?force=true ("Check again") asks the feed even with a fresh cached answer', async () => {
    clock.advance(5 * 60_000);
    feed.answer = { status: 200, body: JSON.stringify({ tag_name: 'v0.0.2' }) };
    expect((await check()).body).toMatchObject({ latestVersion: '0.0.1', fromCache: true, checkedAt: T0 + 61 * 60_000 });
    expect(feed.hits).toBe(2);
    expect((await check('?force=true')).body).toEqual({ hasUpdate: false, currentVersion: current, latestVersion: '0.0.2', fromCache: false, checkedAt: T0 + 66 * 60_000 });
    expect(feed.hits).toBe(3);
    expect((await check('?force=false')).body).toMatchObject({ latestVersion: '0.0.2', fromCache: true });
    expect(feed.hits).toBe(3);
  });

  it('a force that is not true or false is a 400 naming the parameter', async () => {
    for (const query of ['?force=yes', '?force=1', '?force=true&force=true']) {
      const res = await check(query);
      expect(res.status).toBe(400);
      expect(res.body.error).toBe('Invalid query parameters');
      expect(res.body.message).toMatch(/force/);
    }
  });

  it('falls back to the last cached answer, however old, when the feed fails', async () => {
    feed.answer = { status: 200, body: JSON.stringify({ tag_name: 'v50.0.0' }) };
    clock.advance(61 * 60_000);
    await check();
    const lastGood = clock.now();
    clock.advance(5 * 60 * 60_000);
    feed.answer = { status: 500, body: 'upstream sad' };
    const host = new URL(feed.url).host;
    expect(await check()).toEqual({
      status: 200,
      body: { hasUpdate: true, currentVersion: current, latestVersion: '50.0.0', fromCache: true, checkedAt: lastGood, error: `${host}: the feed answered HTTP 500` },
    });
    feed.answer = { status: 200, body: '<html>not json</html>' };
    expect((await check()).body).toMatchObject({ fromCache: true, checkedAt: lastGood, error: `${host}: the feed answer has no readable tag_name` });
    feed.answer = { status: 200, body: JSON.stringify({ name: 'no tag here' }) };
    expect((await check('?force=true')).body).toMatchObject({ fromCache: true, checkedAt: lastGood, error: `${host}: the feed answer has no readable tag_name` });
  });

  it('compares the external binary version including its -N build suffix', async () => {
    feed.answer = { status: 200, body: JSON.stringify({ tag_name: 'v7.2.127-21' }) };
    await writeAppConfig(feed.url, '  binary_path: /opt/cli-proxy-api-plus\n  binary_version: 7.2.127-11\n');
    clock.advance(2 * 60 * 60_000);
    expect((await check()).body).toEqual({ hasUpdate: true, currentVersion: '7.2.127-11', latestVersion: '7.2.127-21', fromCache: false, checkedAt: clock.now() });
    await writeAppConfig(feed.url, '  binary_path: /opt/cli-proxy-api-plus\n  binary_version: v7.2.127-21\n');
    expect((await check()).body).toEqual({ hasUpdate: false, currentVersion: '7.2.127-21', latestVersion: '7.2.127-21', fromCache: true, checkedAt: clock.now() });
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

  it('fresh install, feed unreachable: no update, latest = current, never checked, and why', async () => {
    const url = await unreachableFeedUrl();
    await writeAppConfig(url);
    expect(await check()).toEqual({
      status: 200,
      body: { hasUpdate: false, currentVersion: current, latestVersion: current, fromCache: false, checkedAt: null, error: `could not reach ${new URL(url).host} (ECONNREFUSED)` },
    });
    // "Check again" asks again and still says so: there is no cache to hide behind.
    expect((await check('?force=true')).body).toMatchObject({ checkedAt: null, fromCache: false, error: expect.stringContaining('ECONNREFUSED') });
  });

  it('cached, then offline: the old answer, from the cache, with its own time and the reason', async () => {
    feed.answer = { status: 200, body: JSON.stringify({ tag_name: 'v98.0.0' }) };
    await writeAppConfig(feed.url);
    clock.advance(2 * 60 * 60_000);
    const good = await check('?force=true');
    expect(good.body).toMatchObject({ latestVersion: '98.0.0', fromCache: false, checkedAt: clock.now() });
    const goodAt = clock.now();
    // The same cache, keyed by feed URL, but the server is gone: same URL, nobody listening.
    await feed.close();
    clock.advance(3 * 60 * 60_000);
    expect((await check()).body).toEqual({
      hasUpdate: true,
      currentVersion: current,
      latestVersion: '98.0.0',
      fromCache: true,
      checkedAt: goodAt,
      error: `could not reach ${new URL(feed.url).host} (ECONNREFUSED)`,
    });
    feed = await startFakeFeed({ tag_name: 'v1.0.0' }); // afterAll closes a live one
  });

  it('never answers 5xx, even with a config.yaml it cannot read', async () => {
    await fs.writeFile(path.join(app.home, 'config.yaml'), 'proxy: [broken');
    const res = await check();
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ hasUpdate: false, currentVersion: current, latestVersion: current, fromCache: false, checkedAt: null });
    expect(res.body.error).toMatch(/^Not checked: config.yaml could not be read/);
  });
});
