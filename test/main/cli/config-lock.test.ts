import { spawn } from 'node:child_process';
import fs from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import YAML from 'yaml';
import { nodeEntry } from '../../../main/infra/node-entry.js';
import { startTestApp, type TestApp } from '../../helpers/app.js';

// Issue 27.4: `switchboard use` in a terminal and the running app's key changes wrote config.yaml
// without a lock between them, and each undid the other's change (19 to 26 of ~600 key changes,
// 2 to 4 of 30 default switches). Two real processes: the app (this test's process, serving the
// API) and a loop of `switchboard use` children, each a process of its own.
let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
  for (const name of ['one', 'two']) {
    await fs.writeFile(path.join(app.home, `${name}.settings.json`), JSON.stringify({ env: { PROVIDER_BASE_URL: `https://${name}.example`, PROVIDER_MODEL: name } }));
  }
});
afterAll(() => app.stop());

async function onDisk(): Promise<{ apiKey: string | undefined; default: string | undefined }> {
  const config = YAML.parse(await fs.readFile(path.join(app.home, 'config.yaml'), 'utf8'));
  return { apiKey: config?.proxy?.auth?.api_key, default: config?.default };
}

function use(profile: string): Promise<{ code: number | null; stderr: string }> {
  const entry = nodeEntry('main/cli/main');
  const env = { PATH: process.env.PATH, HOME: app.home, SWITCHBOARD_HOME: app.home, SWITCHBOARD_AGENT_DIR: app.agentDir, ...entry.env };
  const child = spawn(entry.command, [...entry.args, 'use', profile], { env, stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr!.on('data', (c: Buffer) => (stderr += c.toString()));
  return new Promise((resolve) => child.once('exit', (code) => resolve({ code, stderr })));
}

describe('config.yaml between the app and the terminal (issue 27.4)', () => {
  it('no key change of the app and no `switchboard use` is lost while both write', { timeout: 240_000 }, async () => {
    const SWITCHES = 24;
    let lostKeys = 0;
    let lostDefaults = 0;
    let keyChanges = 0;
    let cliDone = false;

    // The terminal: switch the default back and forth; after each `use` the file must name the
    // default it set (the app never sets it).
    const terminal = (async () => {
      try {
        for (let i = 0; i < SWITCHES; i++) {
          const profile = i % 2 === 0 ? 'one' : 'two';
          const { code, stderr } = await use(profile);
          expect(code, stderr).toBe(0);
          if ((await onDisk()).default !== profile) lostDefaults++;
        }
      } finally {
        cliDone = true;
      }
    })();

    // The app: change the API key as fast as it answers; the file must hold each key from its
    // answer until the next change (the terminal never sets it).
    const appSide = (async () => {
      let previous: string | null = null;
      while (!cliDone) {
        if (previous !== null && (await onDisk()).apiKey !== previous) lostKeys++;
        const key = `key-${keyChanges}-${'x'.repeat(12)}`;
        const res = await app.json('PUT', '/api/settings/auth/tokens', { apiKey: key });
        expect(res.status).toBe(200);
        keyChanges++;
        if ((await onDisk()).apiKey !== key) lostKeys++;
        previous = key;
      }
    })();

    await Promise.all([terminal, appSide]);
    expect(keyChanges).toBeGreaterThan(SWITCHES); // the two really wrote at the same time
    expect({ lostKeys, lostDefaults }).toEqual({ lostKeys: 0, lostDefaults: 0 });
    // No lock file is left once both are done.
    expect((await fs.readdir(app.home)).filter((name) => name.endsWith('.lock'))).toEqual(['switchboard.lock']);
  });
});
