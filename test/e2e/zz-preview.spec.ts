import { test } from '@playwright/test';
import { startApp, type App } from './fixtures.js';

let app: App;
test.beforeAll(async () => { app = await startApp(); });
test.afterAll(() => app.stop());

test('preview', async ({ page }) => {
  await page.route('**/api/profiles', (r) => r.fulfill({ json: { default: 'work', profiles: [
    { name: 'glm', path: '/x/glm.settings.json', mtime: Date.now(), baseUrl: 'open.bigmodel.cn', model: 'glm-4.6', usesProxy: false },
    { name: 'proxy', path: '/x/proxy.settings.json', mtime: Date.now(), baseUrl: '127.0.0.1:8317', model: 'gpt-5-codex-very-long-model-name-2025', usesProxy: true },
    { name: 'work', path: '/x/work.settings.json', mtime: Date.now(), default: true, baseUrl: '127.0.0.1:8317', model: 'claude-sonnet-4-5', usesProxy: false },
    { name: 'broken', path: '/x/broken.settings.json', mtime: Date.now(), baseUrl: null, model: null, usesProxy: false },
  ] } }));
  await page.route('**/api/claude-code', (r) => r.fulfill({ json: { path: '/home/u/.claude/settings.json', exists: true, applied: { profile: 'work', appliedAt: Date.now(), keys: ['ANTHROPIC_BASE_URL', 'ANTHROPIC_AUTH_TOKEN', 'ANTHROPIC_MODEL', 'PROVIDER_MODEL'] }, editedSince: true, canUndo: true } }));
  await page.route('**/api/profiles/model-suggestions', (r) => r.fulfill({ json: { models: [{ id: 'claude-haiku-4-5', sources: ['usage'] }, { id: 'claude-sonnet-4-5', sources: ['proxy', 'usage'] }] } }));
  await page.request.post(`${app.url}/api/settings/work/presets`, { data: { name: 'fast', default: 'claude-haiku-4-5', opus: 'claude-opus-4-1' }, headers: { 'Content-Type': 'application/json' } });
  for (const w of [1280, 800]) {
    await page.setViewportSize({ width: w, height: 900 });
    await page.goto(`${app.url}/#/profiles/work`);
    await page.getByTestId('profile-path').waitFor();
    await page.waitForTimeout(500);
    await page.screenshot({ path: `/work/shots/t18ui/preview-${w}.png`, fullPage: true });
  }
  await page.goto(`${app.url}/#/proxy/tokens`);
  await page.getByTestId('api-key-value').waitFor();
  await page.screenshot({ path: `/work/shots/t18ui/preview-tokens.png`, fullPage: true });
});
