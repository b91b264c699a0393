import fs from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../helpers/app.js';
import { assistantLine } from '../../fixtures/usage/lines.js';
import { prepareProxyHome } from '../../fixtures/proxy-home.js';

/** All three sources at once: the real proxy engine running, a usage transcript, a preset. */
let app: TestApp;
beforeAll(async () => {
  app = await startTestApp({
    before: async ({ home, agentDir }) => {
      await prepareProxyHome(home);
      await fs.mkdir(path.join(agentDir, 'projects', 'p'), { recursive: true });
      await fs.writeFile(path.join(agentDir, 'projects', 'p', 's.jsonl'), `${assistantLine({ model: 'claude-sonnet-4-5' })}\n${assistantLine({ msg: 'm2', req: 'r2', model: 'glm-4.6' })}\n`);
      await fs.writeFile(path.join(home, 'glm.settings.json'), JSON.stringify({ env: {}, presets: [{ name: 'p', default: 'glm-4.6', haiku: 'glm-4.5-air' }] }));
    },
  });
}, 60_000);
afterAll(async () => {
  await app.json('POST', '/api/proxy/proxy-stop');
  await app.stop();
});

describe('GET /api/profiles/model-suggestions with every source', () => {
  it('stopped proxy: usage and presets only', async () => {
    const res = await app.json('GET', '/api/profiles/model-suggestions');
    expect(res).toEqual({
      status: 200,
      body: {
        models: [
          { id: 'claude-sonnet-4-5', sources: ['usage'] },
          { id: 'glm-4.5-air', sources: ['presets'] },
          { id: 'glm-4.6', sources: ['usage', 'presets'] },
        ],
      },
    });
  });

  it('running proxy: its /v1/models join, merged by id', { timeout: 60_000 }, async () => {
    expect((await app.json('POST', '/api/proxy/proxy-start')).status).toBe(200);
    const { body } = await app.json('GET', '/api/profiles/model-suggestions');
    expect(body.models).toEqual([
      { id: 'claude-haiku-4-5', sources: ['proxy'] },
      { id: 'claude-sonnet-4-5', sources: ['proxy', 'usage'] },
      { id: 'glm-4.5-air', sources: ['presets'] },
      { id: 'glm-4.6', sources: ['usage', 'presets'] },
      { id: 'gpt-4o', sources: ['proxy'] },
      { id: 'gpt-4o-mini', sources: ['proxy'] },
    ]);
  });
});
