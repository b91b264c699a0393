import fs from 'node:fs/promises';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runAccounts } from '../../../main/cli/accounts.js';
import { CliError } from '../../../main/cli/args.js';
import { runLogin } from '../../../main/cli/login.js';
import { overridesYaml, startFakeAccountProviders, type FakeAccountProviders } from '../../fixtures/fake-account-providers.js';
import { googleOverrideLines, startFakeGoogle, type FakeGoogle } from '../../fixtures/fake-google.js';
import { freePort } from '../../helpers/free-port.js';
import { OFFLINE_CONFIG_YAML } from '../../helpers/offline-config.js';
import { makeTempDir } from '../../helpers/temp-dir.js';

/** `switchboard login` and `switchboard accounts`, in process, against the fake providers. */
let dir: string;
let cleanup: () => Promise<void>;
let env: NodeJS.ProcessEnv;
let fake: FakeAccountProviders;
let google: FakeGoogle;
let port: number;
let agyPort: number;
beforeEach(async () => {
  ({ dir, cleanup } = await makeTempDir('switchboard-cli-login-'));
  fake = await startFakeAccountProviders();
  google = await startFakeGoogle();
  port = await freePort();
  agyPort = await freePort();
  const geminiPort = await freePort();
  const home = path.join(dir, 'config');
  env = { SWITCHBOARD_HOME: home, SWITCHBOARD_AGENT_DIR: path.join(dir, 'agent'), HOME: dir };
  await fs.mkdir(path.join(home, 'proxy'), { recursive: true });
  await fs.writeFile(path.join(home, 'config.yaml'), OFFLINE_CONFIG_YAML + overridesYaml(fake.origin) + googleOverrideLines(google.origin).join('\n') + '\n');
  await fs.writeFile(path.join(home, 'proxy', 'config.yaml'), `providers:\n  codex:\n    oauth_port: ${port}\n  agy:\n    oauth_port: ${agyPort}\n  gemini:\n    oauth_port: ${geminiPort}\n`);
});
afterEach(async () => {
  await fake.close();
  await google.close();
  await cleanup();
});

function capture() {
  const out: string[] = [];
  const err: string[] = [];
  return { io: { out: (t: string) => void out.push(t), err: (t: string) => void err.push(t) }, out, err };
}

/** The browser's part: the provider redirects to the loopback callback, which the browser loads. */
async function browser(url: string): Promise<boolean> {
  const res = await fetch(url, { redirect: 'manual' });
  await fetch(res.headers.get('location')!.replace('//localhost:', '//127.0.0.1:'));
  return true;
}

describe('switchboard login', () => {
  it('codex: opens the browser, the callback signs in, the account is listed', async () => {
    const { io, out, err } = capture();
    expect(await runLogin(['codex'], env, { io, open: browser, input: new PassThrough() })).toBe(0);
    expect(err).toEqual([]);
    expect(out.join('')).toContain(`Sign in at:\n  ${fake.origin}/oauth/authorize?`);
    expect(out.join('')).toMatch(/Signed in: codex account coder@example\.com \(plus\) \(saved as proxy\/auth\/codex-[0-9a-f]{8}-coder@example\.com-plus\.json\)/);
    const list = capture();
    expect(await runAccounts([], env, list.io)).toBe(0);
    expect(list.out.join('')).toMatch(/^PROVIDER +ACCOUNT +STATUS/);
    expect(list.out.join('')).toMatch(/codex +coder@example\.com +active/);
  });

  it('codex --no-browser: prints the address, a refused paste says why, the right paste signs in', async () => {
    const { io, out, err } = capture();
    const input = new PassThrough();
    let opened = false;
    const done = runLogin(['codex', '--no-browser'], env, { io, input, open: async () => (opened = true) });
    const url = await until(() => /Sign in at:\n {2}(\S+)/.exec(out.join(''))?.[1]);
    const location = (await fetch(url, { redirect: 'manual' })).headers.get('location')!;
    const forged = new URL(location);
    forged.searchParams.set('state', 'forged');
    input.write(`${forged}\n`);
    await until(() => err.join('').includes('state') || undefined);
    input.write(`${location}\n`);
    expect(await done).toBe(0);
    expect(opened).toBe(false);
    expect(out.join('')).toContain('Signed in: codex account coder@example.com');
  });

  it('ghcp: prints the device code, signs in once approved', async () => {
    const { io, out } = capture();
    fake.approveGithubDevice();
    expect(await runLogin(['ghcp', '--no-browser'], env, { io, input: new PassThrough() })).toBe(0);
    expect(out.join('')).toContain(`Open ${fake.origin}/login/device and enter the code: WXYZ-5678`);
    expect(out.join('')).toContain('Signed in: ghcp account octocat');
  }, 20_000);

  it('usage errors: unknown provider, unknown option, both flags', async () => {
    await expect(runLogin(['openai'], env)).rejects.toThrow(new CliError('Provider must be one of: agy, gemini, codex, iflow, kiro, ghcp'));
    await expect(runLogin(['codex', '--fast'], env)).rejects.toThrow(CliError);
    await expect(runLogin(['codex', '--device', '--no-browser'], env)).rejects.toThrow('choose one of');
  });
});

describe('switchboard accounts', () => {
  it('pause, resume, remove; import with nothing to import exits 1 and names the paths', async () => {
    expect(await runLogin(['codex'], env, { io: capture().io, open: browser, input: new PassThrough() })).toBe(0);
    for (const [cmd, word] of [['pause', 'Paused'], ['resume', 'Resumed'], ['remove', 'Removed']] as const) {
      const c = capture();
      expect(await runAccounts([cmd, 'codex', 'coder@example.com'], env, c.io)).toBe(0);
      expect(c.out.join('')).toContain(`${word} codex account coder@example.com (plus)`);
    }
    const none = capture();
    expect(await runAccounts(['import', 'codex'], env, none.io)).toBe(1);
    expect(none.err.join('')).toContain(path.join(dir, '.codex', 'auth.json'));
    const missing = capture();
    expect(await runAccounts(['pause', 'codex', 'coder@example.com'], env, missing.io)).toBe(1);
    expect(missing.err.join('')).toContain('No codex account coder@example.com');
  });
});

async function until<T>(read: () => T | undefined): Promise<T> {
  for (let i = 0; i < 500; i++) {
    const v = read();
    if (v !== undefined) return v;
    await new Promise((r) => setTimeout(r, 10));
  }
  throw new Error('condition not reached');
}

describe('login agy: the ban-risk acknowledgement', () => {
  it('asks y/N; no (or end of input) signs nothing in and remembers nothing; yes is remembered', async () => {
    const ack = path.join(dir, 'config', 'accounts-acknowledged.json');
    const no = new PassThrough();
    const c1 = capture();
    const first = runLogin(['agy'], env, { io: c1.io, input: no, open: async () => false });
    no.end('n\n');
    await expect(first).rejects.toThrow('not acknowledged');
    expect(c1.out.join('')).toMatch(/banned[\s\S]*Continue\? \[y\/N\]/);
    await expect(fs.stat(ack)).rejects.toMatchObject({ code: 'ENOENT' });
    const yes = new PassThrough();
    const c2 = capture();
    // Accepted: the Google sign-in follows (the "browser" comes back to the loopback listener).
    const second = runLogin(['agy'], env, { io: c2.io, input: yes, open: browser });
    yes.write('y\n');
    expect(await second).toBe(0);
    expect(c2.out.join('')).toContain('Signed in: agy account pilot@example.com (saved as proxy/auth/antigravity-pilot@example.com.json)');
    expect(JSON.parse(await fs.readFile(ack, 'utf8'))).toMatchObject({ agy: expect.any(String) });
  });

  it('--acknowledge accepts without asking; prints the Google URL and finishes when the callback arrives', async () => {
    const c = capture();
    let printed = '';
    const done = runLogin(['agy', '--acknowledge', '--no-browser'], env, { io: c.io, input: new PassThrough(), open: async () => false });
    printed = await until(() => /Sign in at:\n {2}(\S+)/.exec(c.out.join(''))?.[1]);
    expect(printed.startsWith(`${google.origin}/o/oauth2/v2/auth?`)).toBe(true);
    expect(new URL(printed).searchParams.get('redirect_uri')).toBe(`http://localhost:${agyPort}/oauth-callback`);
    await browser(printed);
    expect(await done).toBe(0);
    expect(c.out.join('')).not.toContain('Continue?');
    expect(c.out.join('')).toContain('Signed in: agy account pilot@example.com');
    expect(JSON.parse(await fs.readFile(path.join(dir, 'config', 'accounts-acknowledged.json'), 'utf8'))).toHaveProperty('agy');
    const record = JSON.parse(await fs.readFile(path.join(dir, 'config', 'proxy', 'auth', 'antigravity-pilot@example.com.json'), 'utf8'));
    expect(record).toMatchObject({ type: 'antigravity', email: 'pilot@example.com', project_id: 'agy-project-1' });
  });
});

describe('login gemini', () => {
  it('without --project: refused with the retirement explained; --project without a value: usage error', async () => {
    await expect(runLogin(['gemini'], env, { io: capture().io, input: new PassThrough() })).rejects.toThrow(/2026-06-18[\s\S]*oauth_creds\.json/);
    await expect(runLogin(['gemini', '--project'], env)).rejects.toThrow("option '--project' needs a Google Cloud project id");
  });

  it('--project <id> --no-browser: prints the Gemini CLI client\'s URL; the pasted redirect signs in', async () => {
    google.onboardPending = 0;
    const c = capture();
    const input = new PassThrough();
    const done = runLogin(['gemini', '--project', 'my-team-project', '--no-browser'], env, { io: c.io, input, open: async () => false });
    const url = await until(() => /Sign in at:\n {2}(\S+)/.exec(c.out.join(''))?.[1]);
    const location = (await fetch(url, { redirect: 'manual' })).headers.get('location')!;
    input.write(`${location}\n`);
    expect(await done).toBe(0);
    expect(c.out.join('')).toContain('Signed in: gemini account pilot@example.com (saved as proxy/auth/gemini-pilot@example.com-onboarded-project-7.json)');
  });
});
