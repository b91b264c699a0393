import fs from 'node:fs/promises';
import path from 'node:path';
import { expect, test, type Locator, type Page } from '@playwright/test';
import { CLIPROXY_ORIGINAL, fakeCliproxyWrapper, startFakeReleaseFeed } from '../helpers/fake-release-feed.js';
import { makeTempDir } from '../helpers/temp-dir.js';
import { OFFLINE_CONFIG_YAML } from '../helpers/offline-config.js';
import { expectAccessible, watchPage } from './fixtures.js';
import { serve, type Served } from './serve.js';

// The CLIProxyAPI card on the Proxy page (issue 31, Build 1 and Show) against a local fake of
// GitHub's release feed serving a fake binary that answers like the real one.
test.use({ actionTimeout: 15_000 });

const runScript = fakeCliproxyWrapper();
let tmp: Awaited<ReturnType<typeof makeTempDir>>;
let feed: Awaited<ReturnType<typeof startFakeReleaseFeed>>;
let app: Served;

test.beforeAll(async () => {
  tmp = await makeTempDir('cliproxy-e2e-');
  feed = await startFakeReleaseFeed({
    workDir: tmp.dir,
    ...CLIPROXY_ORIGINAL,
    releases: [
      // 3 MiB of padding, held after 1.2 MiB: the bar is seen mid-download.
      { version: '6.9.44', script: runScript, padBytes: 3 * 1024 * 1024, pauseAfter: 1_300_000 },
      { version: '6.9.45', script: runScript },
      { version: '6.9.46', script: runScript, badChecksum: true },
      { version: '6.9.47', script: runScript, cutAfter: 40 },
    ],
    // 6.6.85-0 is on the shipped known-bad list (resources/cliproxy-known-bad.json).
    extra: [{ repo: 'kaitranntt/CLIProxyAPIPlus', prefix: 'CLIProxyAPIPlus', executable: 'cli-proxy-api-plus', releases: [{ version: '6.6.85-0', script: runScript }] }],
  });
  feed.setLatest('6.9.44');
  app = await serve(async ({ home }) => {
    await fs.mkdir(home, { recursive: true });
    const network = `network:\n  origin_overrides:\n    https://api.github.com: ${feed.origin}\n    https://github.com: ${feed.origin}\n`;
    await fs.writeFile(path.join(home, 'config.yaml'), OFFLINE_CONFIG_YAML + network, { mode: 0o600 });
  });
});
test.afterAll(async () => {
  await app?.stop();
  feed?.resume();
  await feed?.close();
  await tmp?.cleanup();
});

async function openCard(page: Page): Promise<Locator> {
  await page.goto(`${app.url}/#/proxy/status`);
  const card = page.getByTestId('cliproxy-card');
  await expect(card.getByTestId('cliproxy-facts')).toBeVisible();
  return card;
}

async function checkForUpdates(card: Locator): Promise<void> {
  const latest = card.getByTestId('cliproxy-latest');
  const before = await latest.textContent();
  await card.getByRole('button', { name: 'Check for updates' }).click();
  await expect(latest).not.toHaveText(before ?? '');
}

const shot = (card: Locator, name: string) => card.screenshot({ path: `docs/screenshots/${name}.png` });

test('install with progress, update with a restart, every refusal with its next step, start, stop, uninstall', async ({ page }) => {
  const watch = watchPage(page);
  // The refusals below are the point of this test.
  watch.allow(/POST \/api\/proxy\/cliproxy\/install → (502|404|409)/);
  watch.allow(/PUT \/api\/proxy\/cliproxy\/pin → 400/);
  await page.setViewportSize({ width: 1200, height: 900 });
  const card = await openCard(page);
  await expect(card.locator('.panel-head .badge')).toHaveText(/Not installed/);
  await expect(card).toContainText('agy');
  await expect(card).toContainText('kiro');
  await expect(card.getByTestId('cliproxy-latest')).toHaveText('6.9.44');

  // Install: the bar shows bytes of total while the feed holds the rest.
  await card.getByRole('button', { name: 'Install CLIProxyAPI' }).click();
  await feed.paused();
  const progress = card.getByTestId('cliproxy-progress');
  await expect(progress).toContainText(/1\.2 MB of 3\.0 MB \(\d+%\)/);
  await expectAccessible(page, 'cliproxy installing');
  await shot(card, 'cliproxy-installing');
  feed.resume();
  await expect(card.getByTestId('cliproxy-result')).toHaveText('6.9.44 installed');
  await expect(card.getByTestId('cliproxy-version')).toHaveText('6.9.44 (original)');
  await expect(progress).toHaveCount(0);

  // Start, then an update while it runs: the old process is replaced and says so.
  await card.getByRole('button', { name: 'Start' }).click();
  await expect(card.locator('.panel-head .badge')).toHaveText(/Running/);
  await expect(card).toContainText(/Yes, on 127\.0\.0\.1:\d+/);
  feed.setLatest('6.9.45');
  await checkForUpdates(card);
  await card.getByRole('button', { name: 'Update to 6.9.45' }).click();
  await expect(card.getByTestId('cliproxy-result')).toHaveText('6.9.44 → 6.9.45, restarted');
  await expect(card.getByTestId('cliproxy-version')).toHaveText('6.9.45 (original)');
  await expect(card.locator('.panel-head .badge')).toHaveText(/Running/);
  await expect(card).toContainText('Up to date.');
  await shot(card, 'cliproxy-installed');

  // Checksum mismatch: refused, with what to do next; 6.9.45 stays.
  feed.setLatest('6.9.46');
  await checkForUpdates(card);
  await card.getByRole('button', { name: 'Update to 6.9.46' }).click();
  const refusal = card.getByRole('alert');
  await expect(refusal).toContainText('Checksum mismatch: The download did not match');
  await expect(refusal).toContainText('What now:');
  await expect(refusal).toContainText('Nothing was replaced');
  await expect(card.getByTestId('cliproxy-version')).toHaveText('6.9.45 (original)');
  await shot(card, 'cliproxy-checksum-refused');

  // A cut download: Download failed, nothing replaced.
  feed.setLatest('6.9.47');
  await checkForUpdates(card);
  await card.getByRole('button', { name: 'Update to 6.9.47' }).click();
  await expect(card.getByRole('alert').filter({ hasText: 'Download failed: The download did not finish' })).toHaveCount(1);
  await expect(card.getByTestId('cliproxy-version')).toHaveText('6.9.45 (original)');

  // Pin: a malformed version is refused; a pin with no release is "No release asset"; Unpin.
  await card.getByLabel('Pin a version').fill('latest');
  await card.getByRole('button', { name: 'Pin', exact: true }).click();
  await expect(card.getByRole('alert').filter({ hasText: 'Invalid pin' })).toHaveCount(1);
  await card.getByLabel('Pin a version').fill('1.2.3');
  await card.getByRole('button', { name: 'Pin', exact: true }).click();
  await expect(card.getByTestId('cliproxy-pin')).toContainText('Pinned to 1.2.3');
  await card.getByRole('button', { name: 'Install pinned 1.2.3' }).click();
  await expect(card.getByRole('alert').filter({ hasText: 'No release asset: No build of that release' })).toHaveCount(1);
  await card.getByRole('button', { name: 'Unpin' }).click();
  await expect(card.getByLabel('Pin a version')).toBeVisible();

  // Known-bad: asks first; "no" keeps the refusal, "yes" installs it anyway.
  await card.getByTestId('cliproxy-backend').selectOption('plus');
  let asked = '';
  page.once('dialog', (d) => void ((asked = d.message()), d.dismiss()));
  await card.getByRole('button', { name: 'Switch to CLIProxyAPI Plus' }).click();
  await expect(card.getByRole('alert').filter({ hasText: 'Known-bad version: This version is on the known-bad list' })).toHaveCount(1);
  expect(asked).toContain('known-bad');
  expect(asked).toContain('anyway');
  page.once('dialog', (d) => void d.accept());
  await card.getByRole('button', { name: 'Switch to CLIProxyAPI Plus' }).click();
  await expect(card.getByTestId('cliproxy-result')).toHaveText('6.9.45 → 6.6.85-0, restarted');
  await expect(card.getByTestId('cliproxy-version')).toHaveText('6.6.85-0 (Plus)');

  // Stop, then Uninstall with a confirm that says the accounts stay.
  await card.getByRole('button', { name: 'Stop' }).click();
  await expect(card.locator('.panel-head .badge')).toHaveText(/Stopped/);
  await fs.writeFile(path.join(app.home, 'proxy', 'auth', 'kiro-e2e.json'), '{"type":"kiro"}');
  page.once('dialog', (d) => void ((asked = d.message()), d.accept()));
  await card.getByRole('button', { name: 'Uninstall' }).click();
  await expect(card.locator('.panel-head .badge')).toHaveText(/Not installed/);
  expect(asked).toMatch(/accounts in proxy\/auth\/ stay/);
  expect(await fs.readFile(path.join(app.home, 'proxy', 'auth', 'kiro-e2e.json'), 'utf8')).toBe('{"type":"kiro"}');

  expect(watch.errors).toEqual([]);
  expect(watch.failures).toEqual([]);
});
