// claude-code-router 2.0.0 as a baseline for npm run bench:proxy: installed by the bench into a
// temp dir with npm (v3 does not install from the registry), configured through a temp HOME to
// route every request to the local fake upstream, and run in the foreground (`ccr start`).
import { execFile } from 'node:child_process';
import fs from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { findFreePort } from '../main/infra/port-probe.js';

export const CCR_PACKAGE = '@musistudio/claude-code-router@2.0.0';
export const CCR_KEY = 'sk-ccr-bench-key';

/** npm install into `dir`; returns the CLI's path. */
export async function installCcr(dir: string): Promise<string> {
  await promisify(execFile)('npm', ['install', '--prefix', dir, CCR_PACKAGE, '--no-audit', '--no-fund', '--loglevel=error'], { timeout: 300_000 });
  return path.join(dir, 'node_modules', '@musistudio', 'claude-code-router', 'dist', 'cli.js');
}

/** Writes `<home>/.claude-code-router/config.json` routing to `upstreamUrl` (OpenAI chat completions); returns the port. */
export async function configureCcr(home: string, upstreamUrl: string, model: string): Promise<number> {
  const port = await findFreePort();
  const dir = path.join(home, '.claude-code-router');
  await fs.mkdir(dir, { recursive: true });
  const config = {
    PORT: port,
    HOST: '127.0.0.1',
    APIKEY: CCR_KEY,
    LOG: false,
    Providers: [{ name: 'fake', api_base_url: upstreamUrl, api_key: 'sk-upstream', models: [model] }],
    Router: { default: `fake,${model}` },
  };
  await fs.writeFile(path.join(dir, 'config.json'), JSON.stringify(config, null, 2));
  return port;
}
