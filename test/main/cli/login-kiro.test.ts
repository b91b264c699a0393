import fs from 'node:fs/promises';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CliError } from '../../../main/cli/args.js';
import { runLogin } from '../../../main/cli/login.js';
import { OFFLINE_CONFIG_YAML } from '../../helpers/offline-config.js';
import { makeTempDir } from '../../helpers/temp-dir.js';
import { isProcessAlive } from '../../../main/infra/process-alive.js';
import { waitFor } from '../../helpers/wait.js';

/** `switchboard login kiro` through the fake CLIProxyAPI, placed in proxy/bin as an install would. */
let dir: string;
let cleanup: () => Promise<void>;
let env: NodeJS.ProcessEnv;
let home: string;
beforeEach(async () => {
  ({ dir, cleanup } = await makeTempDir('switchboard-cli-kiro-'));
  home = path.join(dir, 'config');
  env = { SWITCHBOARD_HOME: home, SWITCHBOARD_AGENT_DIR: path.join(dir, 'agent'), HOME: dir };
  await fs.mkdir(home, { recursive: true });
  await fs.writeFile(path.join(home, 'config.yaml'), OFFLINE_CONFIG_YAML);
});
afterEach(async () => {
  // A failed run must not leave the fake binary behind.
  const state = await fs.readFile(path.join(home, 'proxy', 'cliproxy', 'state.json'), 'utf8').catch(() => null);
  const pid = state ? (JSON.parse(state) as { pid?: number }).pid : undefined;
  if (pid && alive(pid)) process.kill(pid, 'SIGKILL');
  await cleanup();
});

async function installFake(): Promise<void> {
  const bin = path.join(home, 'proxy', 'bin');
  await fs.mkdir(bin, { recursive: true });
  const exe = path.join(bin, 'cli-proxy-api-plus');
  await fs.writeFile(exe, `#!/bin/sh\nexec "${process.execPath}" "${path.resolve('test/fixtures/fake-cliproxy.mjs')}" "$@"\n`, { mode: 0o755 });
  await fs.writeFile(path.join(bin, 'version.json'), JSON.stringify({ backend: 'plus', version: '6.9.45-0', path: exe }));
}

function capture() {
  const out: string[] = [];
  const err: string[] = [];
  return { io: { out: (t: string) => void out.push(t), err: (t: string) => void err.push(t) }, out, err };
}

async function until<T>(read: () => Promise<T | undefined> | T | undefined, ms = 10_000): Promise<T> {
  return (await waitFor(read, (v) => v !== undefined, { ms, pollMs: 20 })) as T;
}

const alive = isProcessAlive;

describe('switchboard login kiro', () => {
  it('without the binary: says how to install it', async () => {
    const { io } = capture();
    await expect(runLogin(['kiro'], env, { io, input: new PassThrough() })).rejects.toThrow(/switchboard cliproxy install --backend plus/);
  });

  it('refuses IdC options without --idc, --idc without a start URL, and IdC for other providers', async () => {
    const { io } = capture();
    await expect(runLogin(['kiro', '--start-url', 'https://x.awsapps.com/start'], env, { io })).rejects.toThrow(new CliError('--start-url and --region go with --idc'));
    await expect(runLogin(['kiro', '--idc'], env, { io })).rejects.toThrow(/needs --start-url/);
    await expect(runLogin(['codex', '--idc'], env, { io })).rejects.toThrow(new CliError('--idc, --start-url and --region are for kiro'));
    await expect(runLogin(['kiro', '--region'], env, { io })).rejects.toThrow(new CliError("option '--region' needs a value"));
  });

  it('--idc: prints the URL and code, waits, signs in; the binary it started is stopped again', async () => {
    await installFake();
    const { io, out, err } = capture();
    const done = runLogin(['kiro', '--idc', '--start-url=https://my-org.awsapps.com/start', '--region', 'eu-west-1', '--no-browser'], env, { io, input: new PassThrough() });
    const code = await until(() => /enter the code: (FAKE-\w+)/.exec(out.join(''))?.[1]);
    expect(out.join('')).toContain('Open https://my-org.awsapps.com/start/#/device?user_code=');
    const { port } = JSON.parse(await fs.readFile(path.join(home, 'proxy', 'cliproxy', 'credentials.json'), 'utf8'));
    const { pid } = JSON.parse(await fs.readFile(path.join(home, 'proxy', 'cliproxy', 'state.json'), 'utf8'));
    const records = (await (await fetch(`http://127.0.0.1:${port}/fake/records`)).json()) as { calls: Array<{ path: string; query: Record<string, string> }> };
    expect(records.calls.find((c) => c.path === 'kiro-auth-url')?.query).toEqual({ is_webui: 'true', method: 'idc', start_url: 'https://my-org.awsapps.com/start', region: 'eu-west-1' });
    await fetch(`http://127.0.0.1:${port}/fake/kiro/complete`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: 'org@example.com' }) });
    expect(await done).toBe(0);
    expect(err).toEqual([]);
    expect(code).toMatch(/^FAKE-/);
    expect(out.join('')).toContain('Signed in: kiro account org@example.com (saved as proxy/auth/kiro-idc-org_example.com.json)');
    const saved = JSON.parse(await fs.readFile(path.join(home, 'proxy', 'auth', 'kiro-idc-org_example.com.json'), 'utf8'));
    expect(saved).toMatchObject({ type: 'kiro', auth_method: 'idc', start_url: 'https://my-org.awsapps.com/start', region: 'eu-west-1' });
    await until(() => (alive(pid) ? undefined : true));
  });
});
