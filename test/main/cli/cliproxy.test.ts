import fs from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCliproxy } from '../../../main/cli/cliproxy.js';
import { CliError } from '../../../main/cli/args.js';
import { CLIPROXY_ORIGINAL, startFakeReleaseFeed } from '../../helpers/fake-release-feed.js';
import { makeTempDir } from '../../helpers/temp-dir.js';

const script = (v: string) => `#!/bin/sh\necho "CLIProxyAPI Version: ${v}"\n`;
let tmp: Awaited<ReturnType<typeof makeTempDir>>;
let feed: Awaited<ReturnType<typeof startFakeReleaseFeed>>;
let env: NodeJS.ProcessEnv;

beforeAll(async () => {
  tmp = await makeTempDir('cliproxy-cli-');
  feed = await startFakeReleaseFeed({
    workDir: path.join(tmp.dir, 'feed'),
    ...CLIPROXY_ORIGINAL,
    releases: [
      { version: '6.9.40', script: script('6.9.40') },
      { version: '6.9.41', script: script('6.9.41'), badChecksum: true },
      { version: '6.9.45', script: script('6.9.45') },
    ],
  });
  const home = path.join(tmp.dir, 'home');
  await fs.mkdir(home, { recursive: true });
  await fs.writeFile(path.join(home, 'config.yaml'), `network:\n  origin_overrides:\n    https://api.github.com: ${feed.origin}\n    https://github.com: ${feed.origin}\n`);
  env = { SWITCHBOARD_HOME: home, SWITCHBOARD_AGENT_DIR: path.join(tmp.dir, 'agent'), HOME: home };
});
afterAll(async () => {
  await feed?.close();
  await tmp?.cleanup();
});

async function cli(...argv: string[]) {
  let out = '';
  let err = '';
  const code = await runCliproxy(argv, env, { out: (t) => void (out += t), err: (t) => void (err += t) });
  return { code, out, err };
}

describe('switchboard cliproxy', () => {
  it('installs with a progress line, updates saying old -> new, pins, refuses a bad checksum, uninstalls', async () => {
    expect((await cli('status')).out).toContain('not installed');
    const first = await cli('install', '--version', '6.9.40');
    expect(first.code).toBe(0);
    expect(first.out).toContain('CLIProxyAPI 6.9.40 (original) installed');
    expect(first.err).toMatch(/downloading: (\d+) of \1 bytes \(100%\)/);
    expect((await cli('install')).out).toContain('6.9.40 -> 6.9.45');
    expect((await cli('pin', '6.9.40')).out).toContain('pinned to 6.9.40');
    expect((await cli('install')).out).toContain('6.9.45 -> 6.9.40');
    expect((await cli('status')).out).toMatch(/CLIProxyAPI 6\.9\.40[\s\S]*pinned: 6\.9\.40; latest release: 6\.9\.45/);
    const bad = await cli('install', '--version', '6.9.41');
    expect(bad.code).toBe(1);
    expect(bad.err).toContain('Checksum mismatch');
    expect((await cli('unpin')).code).toBe(0);
    expect((await cli('uninstall')).out).toContain('removed');
  });

  it('usage errors are CliErrors', async () => {
    await expect(cli('install', '--backend', 'x')).rejects.toBeInstanceOf(CliError);
    await expect(cli('pin')).rejects.toBeInstanceOf(CliError);
    await expect(cli('frob')).rejects.toBeInstanceOf(CliError);
    expect((await cli('help')).out).toContain('Usage: switchboard cliproxy');
  });
});
