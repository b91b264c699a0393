import fs from 'node:fs/promises';
import type http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import express from 'express';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { errorHandler } from '../../../main/api/middleware/errors.js';
import { createPresetsRouter } from '../../../main/api/presets.js';
import { RouteRegistry } from '../../../main/api/route.js';
import { silentLogger } from '../../../main/infra/logger.js';
import type { Services } from '../../../main/services/index.js';
import { PresetsService } from '../../../main/services/settings/presets-service.js';
import { SettingsStore } from '../../../main/services/settings/settings-store.js';
import { tempContext, type TempContext } from '../../helpers/temp-context.js';

// The presets router over a store whose wait between reads is the test's hook, so the in-place
// writer's second step (the write after the truncate) lands exactly while the route is reading.
// The full app builds its store without a hook; this is the same router and error middleware.

let t: TempContext;
let server: http.Server;
let url: string;
let between: () => Promise<void>;
beforeEach(async () => {
  t = await tempContext();
  between = async () => {};
  let waits = 0;
  const store = new SettingsStore({
    paths: t.ctx.paths,
    clock: t.clock,
    settle: { wait: async () => void (++waits === 1 && (await between())) },
  });
  const services = { presets: new PresetsService(store), profiles: { announce: () => {} } } as unknown as Services;
  server = express()
    .use(express.json())
    .use(createPresetsRouter({ services, registry: new RouteRegistry(), logger: silentLogger }))
    .use(errorHandler(silentLogger))
    .listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterEach(async () => {
  await new Promise((resolve) => server.close(resolve));
  await t.cleanup();
});

const fileOf = (profile: string) => path.join(t.home, `${profile}.settings.json`);
const get = async (urlPath: string) => {
  const res = await fetch(url + urlPath);
  return { status: res.status, body: (await res.json()) as { error?: string; message?: string; presets?: unknown[] } };
};

describe('GET /api/settings/:profile/presets while another program rewrites the file in place', () => {
  it('answers 200 with the rewritten presets when the read lands between the truncate and the write', async () => {
    const presets = [{ name: 'fast', default: 'haiku-4' }];
    await fs.writeFile(fileOf('work'), JSON.stringify({ env: {}, presets: [] }));
    await fs.truncate(fileOf('work'), 0);
    between = () => fs.writeFile(fileOf('work'), JSON.stringify({ env: {}, presets }, null, 2));
    expect(await get('/api/settings/work/presets')).toEqual({ status: 200, body: { presets } });
  });

  it('still answers 500 Failed to read settings file, as documented, for a file that stays broken', async () => {
    await fs.writeFile(fileOf('broken'), '{"presets": [');
    const res = await get('/api/settings/broken/presets');
    expect(res.status).toBe(500);
    expect(res.body.error).toBe('Failed to read settings file');
    expect(res.body.message).toMatch(/^broken\.settings\.json is not a valid settings file: .*JSON/);
  });
});
