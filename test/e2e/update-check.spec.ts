import fs from 'node:fs/promises';
import net from 'node:net';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { FAKE_LATEST_VERSION } from './fake-upstream.js';
import { startApp, watchPage, type App } from './fixtures.js';

// The update card tells what was really checked (issue 28.3, decisions §4 revised).
test.use({ actionTimeout: 10_000 });

let app: App;
test.beforeAll(async () => {
  app = await startApp();
});
test.afterAll(async () => {
  await app.stop();
});

/** A loopback port nobody listens on: the feed is unreachable. */
async function deadPort(): Promise<number> {
  const srv = net.createServer();
  await new Promise<void>((resolve) => srv.listen(0, '127.0.0.1', resolve));
  const { port } = srv.address() as net.AddressInfo;
  await new Promise((resolve) => srv.close(resolve));
  return port;
}

async function pointFeedAt(url: string): Promise<string> {
  const file = path.join(app.home, 'config.yaml');
  const before = await fs.readFile(file, 'utf8');
  await fs.writeFile(file, before.replace(/update_feed_url: .*/, `update_feed_url: ${url}`));
  return before.match(/update_feed_url: (.*)/)![1]!;
}

test('no feed: "Not checked", the reason and "never"; Check again reaches the feed once it is back', async ({ page }) => {
  const watch = watchPage(page);
  const port = await deadPort();
  const realFeed = await pointFeedAt(`http://127.0.0.1:${port}/releases/latest`);
  await page.goto(`${app.url}/#/proxy/status`);
  const card = page.locator('section.panel', { has: page.getByRole('heading', { name: 'Updates' }) });
  await expect(card.locator('.badge')).toHaveText(/Not checked/);
  await expect(card).not.toContainText('Up to date');
  await expect(card.getByTestId('update-checked')).toHaveText('Never: no feed answer yet');
  await expect(card.getByTestId('update-error')).toHaveText(`could not reach 127.0.0.1:${port} (ECONNREFUSED)`);
  await page.setViewportSize({ width: 1100, height: 700 });
  await card.screenshot({ path: 'docs/screenshots/update-card-no-feed.png' });

  await pointFeedAt(realFeed);
  await card.getByRole('button', { name: 'Check again' }).click();
  await expect(card.locator('.badge')).toHaveText(/Update available/);
  await expect(card.getByTestId('update-checked')).toHaveText(/^just now \(/);
  await expect(card.getByTestId('update-error')).toHaveCount(0);
  await expect(card).toContainText(FAKE_LATEST_VERSION);

  expect(watch.errors).toEqual([]);
  expect(watch.failures).toEqual([]);
});
