import fs from 'node:fs/promises';
import path from 'node:path';
import YAML from 'yaml';
import { afterEach, describe, expect, it } from 'vitest';
import { startFakeChatGptBackend, textAnswer } from '../../../fixtures/fake-chatgpt-backend.js';
import { prepareProxyHome, startOnHome, tempHome } from '../../../fixtures/proxy-home.js';

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c().catch(() => undefined);
});

describe('a codex account through the app-started proxy', () => {
  it('reaches the executor base URL through network.origin_overrides of config.yaml, as a user would', async () => {
    const backend = await startFakeChatGptBackend();
    cleanups.push(() => backend.close());
    backend.respond = () => textAnswer('Hi from the ChatGPT backend');
    const dirs = await tempHome();
    cleanups.push(() => fs.rm(dirs.root, { recursive: true, force: true }));
    const port = await prepareProxyHome(dirs.home);
    await fs.appendFile(path.join(dirs.home, 'config.yaml'), `network:\n  origin_overrides:\n    "https://chatgpt.com": "${backend.origin}"\n`);
    await fs.mkdir(path.join(dirs.home, 'proxy', 'auth'), { recursive: true, mode: 0o700 });
    await fs.writeFile(
      path.join(dirs.home, 'proxy', 'auth', 'codex-0a1b2c3d-user@example.com-plus.json'),
      JSON.stringify({ type: 'codex', access_token: 'at-user', refresh_token: 'rt', id_token: 'a.b.c', account_id: 'acct-user', email: 'user@example.com', expired: '2026-12-31T00:00:00Z' }),
      { mode: 0o600 },
    );
    const app = await startOnHome(dirs.home, dirs.agentDir);
    cleanups.push(() => app.app.close());
    expect((await app.json('POST', '/api/proxy/proxy-start')).body.started).toBe(true);
    cleanups.push(async () => void (await app.json('POST', '/api/proxy/proxy-stop')));
    const key = (YAML.parse(await fs.readFile(path.join(dirs.home, 'proxy', 'config.yaml'), 'utf8')) as { auth: { api_key: string } }).auth.api_key;

    const models = (await app.json('GET', '/api/proxy/models')).body as { byCategory: Record<string, Array<{ id: string }>> };
    expect(models.byCategory.codex?.map((m) => m.id)).toContain('gpt-5.4-mini');

    const res = await fetch(`http://127.0.0.1:${port}/v1/messages`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': key, 'anthropic-version': '2023-06-01' },
      body: JSON.stringify({ model: 'gpt-5.4-mini', max_tokens: 100, messages: [{ role: 'user', content: 'hello' }] }),
    });
    expect(res.status).toBe(200);
    expect(((await res.json()) as { content: Array<{ type: string; text?: string }> }).content.find((c) => c.type === 'text')?.text).toBe('Hi from the ChatGPT backend');
    expect(backend.seen.at(-1)!.headers['chatgpt-account-id']).toBe('acct-user');
  });

  it('refuses an origin override that is not an origin, naming the field', async () => {
    const dirs = await tempHome();
    cleanups.push(() => fs.rm(dirs.root, { recursive: true, force: true }));
    await prepareProxyHome(dirs.home);
    const app = await startOnHome(dirs.home, dirs.agentDir);
    cleanups.push(() => app.app.close());
    const current = (await app.json('GET', '/api/config')).body as { config: Record<string, unknown>; mtime: number };
    const res = await app.json('PUT', '/api/config', { config: { ...current.config, network: { origin_overrides: { 'https://chatgpt.com/backend-api': 'http://127.0.0.1:1' } } } });
    expect(res.status).toBe(400);
    expect(res.body.error).toBe('Invalid config');
    expect(res.body.message).toMatch(/^network\.origin_overrides/);
  });
});
