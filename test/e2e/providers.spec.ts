import fs from 'node:fs/promises';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { startFakeUpstream, type FakeUpstream } from '../fixtures/fake-llm-upstream.js';
import { OFFLINE_CONFIG_YAML } from '../helpers/offline-config.js';
import { expectAccessible, freePort, watchPage } from './fixtures.js';
import { serve, type Served } from './serve.js';

const SHOTS = 'docs/screenshots';
test.use({ actionTimeout: 15_000 });

let app: Served;
let zai: FakeUpstream;

/**
 * The built app with Z.ai's real origin redirected to a local fake (network.origin_overrides),
 * so the catalogue's own base URL is what the page and the profile show.
 */
test.beforeAll(async () => {
  zai = await startFakeUpstream();
  zai.behave = (req) =>
    req.key === 'good-zai-key'
      ? { kind: 'json', body: { id: 'msg_1', type: 'message', role: 'assistant', content: [{ type: 'text', text: 'p' }], stop_reason: 'max_tokens', usage: { input_tokens: 1, output_tokens: 1 } } }
      : { kind: 'json', status: 401, body: { error: { message: 'token expired or incorrect' } } };
  app = await serve(async ({ home }) => {
    await fs.mkdir(home, { recursive: true, mode: 0o700 });
    const config = `${OFFLINE_CONFIG_YAML}network:\n  origin_overrides:\n    "https://api.z.ai": "${zai.origin}"\n`;
    await fs.writeFile(path.join(home, 'config.yaml'), config, { mode: 0o600 });
    await writeProxyWithHistory(home, await freePort());
  });
});
test.afterAll(async () => {
  await app?.stop();
  await zai?.close();
});

test('catalogue → GLM with a key: a failed test says what to do, then Test and Add make a working default profile', async ({ page }) => {
  const watch = watchPage(page);
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.goto(`${app.url}/#/providers`);
  await expect(page.getByRole('heading', { name: 'Providers', level: 1 })).toBeVisible();
  for (const name of ['Z.ai GLM (international)', 'DeepSeek', 'OpenRouter', 'Ollama (local)']) {
    await expect(page.getByRole('heading', { name, level: 3 })).toBeVisible();
  }
  await expectAccessible(page, 'providers');
  await page.screenshot({ path: `${SHOTS}/providers-catalog.png`, fullPage: true });

  await page.getByRole('link', { name: 'Set up Z.ai GLM (international)' }).click();
  await expect(page).toHaveURL(/#\/providers\/glm$/);
  const panel = page.getByTestId('add-provider');
  await expect(panel.getByRole('heading', { name: 'Add Z.ai GLM (international)' })).toBeVisible();
  // Nothing to test or add before a key is pasted.
  await expect(panel.getByRole('button', { name: 'Test connection' })).toBeDisabled();

  await panel.getByLabel('API key').fill('wrong-zai-key');
  await expect(panel.getByLabel('API key')).toHaveAttribute('type', 'password');
  await panel.getByRole('button', { name: 'Test connection' }).click();
  const failed = panel.getByTestId('test-result');
  await expect(failed).toContainText('Connection failed');
  await expect(failed).toContainText('HTTP 401');
  await expect(failed).toContainText('The key was refused (401)');
  await expect(failed).toContainText('https://z.ai/manage-apikey/apikey-list');
  await expectAccessible(page, 'providers, failed test');
  await panel.screenshot({ path: `${SHOTS}/providers-test-failed.png` });

  await panel.getByLabel('API key').fill('good-zai-key');
  await panel.getByRole('button', { name: 'Test connection' }).click();
  await expect(panel.getByTestId('test-result')).toContainText('Connection works');
  await panel.getByRole('button', { name: 'Add Z.ai GLM (international)' }).click();
  const added = panel.getByTestId('provider-added');
  await expect(added).toContainText('Added profile glm');
  await expect(added).toContainText('made the default');
  await panel.screenshot({ path: `${SHOTS}/providers-add-glm.png` });

  const saved = JSON.parse(await fs.readFile(path.join(app.home, 'glm.settings.json'), 'utf8')) as { env: Record<string, string> };
  expect(saved.env).toMatchObject({ PROVIDER_BASE_URL: 'https://api.z.ai/api/anthropic', PROVIDER_AUTH_TOKEN: 'good-zai-key', PROVIDER_MODEL: 'glm-5.3' });
  expect(await fs.readFile(path.join(app.home, 'config.yaml'), 'utf8')).toMatch(/^default: glm$/m);

  // The profile card tests the saved profile the same way.
  await page.goto(`${app.url}/#/profiles`);
  await page.getByRole('button', { name: 'Test connection (glm)' }).click();
  await expect(page.getByTestId('profile-card-glm').getByTestId('test-result')).toContainText('glm works');
  expect(watch.errors).toEqual([]);
  expect(watch.failures).toEqual([]);
});

/** Three upstreams and a request-log history: one healthy, one failing with a key cooling, one idle. */
async function writeProxyWithHistory(home: string, port: number): Promise<void> {
  await fs.mkdir(path.join(home, 'proxy', 'logs'), { recursive: true, mode: 0o700 });
  await fs.writeFile(
    path.join(home, 'proxy', 'config.yaml'),
    [
      '# e2e proxy config: the comment must survive the add',
      `server: { port: ${port}, host: 127.0.0.1 }`,
      'routing: { cooldown_seconds: 1800 }',
      'upstreams:',
      '  - { name: openrouter, format: openai, base_url: "http://127.0.0.1:9/v1", api_key: [k1, k2], models: [anthropic/claude-sonnet-4.5, openai/gpt-5-nano] }',
      '  - { name: groq, format: openai, base_url: "http://127.0.0.1:9/openai/v1", api_key: [g1, g2], models: [openai/gpt-oss-120b] }',
      '  - { name: local, format: anthropic, base_url: "http://127.0.0.1:9", models: [qwen3-coder] }',
      '',
    ].join('\n'),
    { mode: 0o600 },
  );
  const now = Date.now();
  let i = 0;
  const line = (upstream: string, status: number, latencyMs: number, keyIndex: number) =>
    JSON.stringify({ id: `h-${i}`, time: now - 20 * 60_000 + i++ * 60_000, format: 'anthropic', method: 'POST', path: '/v1/messages', modelRequested: 'm', modelSent: 'm', upstream, keyIndex, status, outcome: status >= 400 ? 'error' : 'ok', latencyMs, ttfbMs: null, tokens: null, session: null, error: status >= 400 ? `upstream answered ${status}` : null, errorLog: null });
  const lines = [
    ...[820, 640, 1210, 930, 700, 1500, 880].map((ms, k) => line('openrouter', 200, ms, k % 2)),
    line('openrouter', 429, 90, 1),
    line('groq', 200, 310, 0),
    line('groq', 503, 40, 0),
    line('groq', 503, 35, 1),
    line('groq', 502, 38, 0),
  ];
  await fs.writeFile(path.join(home, 'proxy', 'logs', 'requests.jsonl'), `${lines.join('\n')}\n`);
}

test('the Proxy page lists each upstream with its success rate, median latency, cooling keys and a failing mark', async ({ page }) => {
  const watch = watchPage(page);
  await page.setViewportSize({ width: 1280, height: 700 });
  await page.goto(`${app.url}/#/proxy/upstreams`);
  const table = page.getByTestId('upstream-health');
  const row = (name: string) => table.getByRole('row').filter({ has: page.getByRole('rowheader', { name: new RegExp(`^${name}`) }) });
  await expect(row('openrouter')).toContainText('88%');
  await expect(row('openrouter')).toContainText('880 ms');
  await expect(row('openrouter')).toContainText('key 2 cooling');
  await expect(row('groq')).toContainText('failing');
  await expect(row('groq')).toContainText('25%');
  await expect(row('local')).toContainText('none');
  await expectAccessible(page, 'proxy upstreams');
  await page.screenshot({ path: `${SHOTS}/proxy-upstreams.png` });
  expect(watch.errors).toEqual([]);
  expect(watch.failures).toEqual([]);
});

test('the upstream form reorders, edits and removes upstreams; the YAML keeps its comment and keys', async ({ page }) => {
  const watch = watchPage(page);
  await page.setViewportSize({ width: 1280, height: 1100 });
  await page.goto(`${app.url}/#/proxy/upstreams`);
  await page.getByRole('button', { name: 'Edit upstreams' }).click();
  const form = page.getByTestId('upstream-form');
  await form.getByRole('button', { name: 'Up (groq)' }).click();
  const groq = form.getByRole('group', { name: '1. groq' });
  await groq.getByLabel('Models (comma-separated)').fill('openai/gpt-oss-120b, moonshotai/kimi-k2-instruct');
  await form.getByRole('button', { name: 'Remove local' }).click();
  await expectAccessible(page, 'upstream form');
  await page.screenshot({ path: `${SHOTS}/proxy-upstream-form.png`, fullPage: true });
  await form.getByRole('button', { name: 'Save upstreams' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Upstreams saved' })).toContainText('2 upstreams');

  const text = await fs.readFile(path.join(app.home, 'proxy', 'config.yaml'), 'utf8');
  expect(text).toContain('# e2e proxy config: the comment must survive the add');
  expect(text.indexOf('name: groq')).toBeLessThan(text.indexOf('name: openrouter'));
  expect(text).not.toContain('name: local');
  expect(text).toMatch(/models: \[ openai\/gpt-oss-120b, moonshotai\/kimi-k2-instruct \]/);
  expect(text).toContain('api_key: [ g1, g2 ]'); // saved keys kept, never shown in the page
  await expect(page.getByTestId('upstream-health').getByRole('row')).toHaveCount(3); // header + 2
  expect(watch.errors).toEqual([]);
  expect(watch.failures).toEqual([]);
});
