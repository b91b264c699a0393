import { execFileSync } from 'node:child_process';
import fs from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../helpers/app.js';

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});
afterAll(() => app.stop());

const settingsFile = () => path.join(app.agentDir, 'settings.json');
const writeProfile = (profile: string, env: Record<string, string>) => fs.writeFile(path.join(app.home, `${profile}.settings.json`), JSON.stringify({ env }));
const apply = (profile: string) => app.json('POST', '/api/claude-code/apply', { profile });
const envOf = async () => JSON.parse(await fs.readFile(settingsFile(), 'utf8')).env;

const USER_FILE = '{\n  "hooks": {},\n  "env": {"ANTHROPIC_MODEL": "mine", "ANTHROPIC_BASE_URL": "https://mine.example"}\n}\n';

/** Back to no file and nothing recorded. */
beforeEach(async () => {
  await app.json('POST', '/api/claude-code/restore');
  await fs.rm(settingsFile(), { force: true });
  await writeProfile('a', { PROVIDER_BASE_URL: 'https://a.example', PROVIDER_MODEL: 'model-a' });
  await writeProfile('b', { PROVIDER_BASE_URL: 'https://b.example' });
});

describe("the user's own values survive switching (issue 27 point 1)", () => {
  it('a key no profile sets any more gets the value the user had before Switchboard first wrote it', async () => {
    await fs.writeFile(settingsFile(), USER_FILE);
    expect((await apply('a')).status).toBe(200);
    expect((await envOf()).ANTHROPIC_MODEL).toBe('model-a');
    expect((await apply('b')).status).toBe(200);
    const env = await envOf();
    expect(env.ANTHROPIC_MODEL).toBe('mine');
    expect(env.ANTHROPIC_BASE_URL).toBe('https://b.example');
    expect(env.PROVIDER_MODEL).toBeUndefined();
    // b again, then a: still the user's value underneath
    expect((await apply('a')).status).toBe(200);
    expect((await apply('b')).status).toBe(200);
    expect((await envOf()).ANTHROPIC_MODEL).toBe('mine');
  });

  it('a value the user changed after the apply is theirs: never taken back, and what comes back later', async () => {
    await fs.writeFile(settingsFile(), USER_FILE);
    expect((await apply('a')).status).toBe(200);
    const edit = async () => fs.writeFile(settingsFile(), (await fs.readFile(settingsFile(), 'utf8')).replace('"ANTHROPIC_MODEL": "model-a"', '"ANTHROPIC_MODEL": "changed-by-hand"'));
    await edit();
    expect((await apply('b')).status).toBe(200);
    expect((await envOf()).ANTHROPIC_MODEL).toBe('changed-by-hand');
    // a sets it again over the user's change; b then gives back the change, not the first value
    expect((await apply('a')).status).toBe(200);
    expect((await envOf()).ANTHROPIC_MODEL).toBe('model-a');
    expect((await apply('b')).status).toBe(200);
    expect((await envOf()).ANTHROPIC_MODEL).toBe('changed-by-hand');
  });

  it('after 25 applies the original comes back byte for byte, though backups/ keeps only 20', async () => {
    await fs.writeFile(settingsFile(), USER_FILE, { mode: 0o640 });
    for (let i = 0; i < 25; i++) expect((await apply(i % 2 === 0 ? 'a' : 'b')).status).toBe(200);
    const backups = (await fs.readdir(path.join(app.home, 'backups'))).filter((n) => n.startsWith('claude-code-settings.'));
    expect(backups.length).toBe(20);
    expect((await app.json('GET', '/api/claude-code')).body).toMatchObject({ canRestore: true, undoSteps: 25 });
    const res = await app.json('POST', '/api/claude-code/restore');
    expect(res).toMatchObject({ status: 200, body: { success: true, path: settingsFile(), restored: true, undoSteps: 0 } });
    expect(await fs.readFile(settingsFile(), 'utf8')).toBe(USER_FILE);
    expect((await fs.stat(settingsFile())).mode & 0o777).toBe(0o640);
    expect((await app.json('GET', '/api/claude-code')).body).toMatchObject({ applied: null, canRestore: false, canUndo: false });
  });

  it('restore with nothing kept answers 404 Nothing to restore', async () => {
    const res = await app.json('POST', '/api/claude-code/restore');
    expect(res.status).toBe(404);
    expect(res.body.error).toBe('Nothing to restore');
  });

  it('restore removes a file that did not exist before the first apply', async () => {
    expect((await apply('a')).status).toBe(200);
    expect((await apply('b')).status).toBe(200);
    expect((await app.json('POST', '/api/claude-code/restore')).status).toBe(200);
    await expect(fs.stat(settingsFile())).rejects.toThrow();
  });

  it('undo walks back through every apply, one step each, down to the original', async () => {
    await fs.writeFile(settingsFile(), USER_FILE);
    const seen: string[] = [USER_FILE];
    for (const p of ['a', 'b', 'a']) {
      expect((await apply(p)).status).toBe(200);
      seen.push(await fs.readFile(settingsFile(), 'utf8'));
    }
    for (let left = 2; left >= 0; left--) {
      const res = await app.json('POST', '/api/claude-code/undo');
      expect(res.body.undoSteps).toBe(left);
      expect(await fs.readFile(settingsFile(), 'utf8')).toBe(seen[left]);
    }
    expect((await app.json('POST', '/api/claude-code/undo')).status).toBe(404);
  });

  it('switchboard claude-code restore does the same from the terminal', async () => {
    await fs.writeFile(settingsFile(), USER_FILE);
    expect((await apply('a')).status).toBe(200);
    const { runClaudeCode } = await import('../../../main/cli/claude-code.js');
    const out: string[] = [];
    const code = await runClaudeCode(['restore'], { SWITCHBOARD_HOME: app.home, SWITCHBOARD_AGENT_DIR: app.agentDir }, { out: (t) => out.push(t), err: (t) => out.push(t) });
    expect(code).toBe(0);
    expect(out.join('')).toContain(settingsFile());
    expect(await fs.readFile(settingsFile(), 'utf8')).toBe(USER_FILE);
  });
});

describe('files Switchboard cannot write back faithfully are refused and left as they are', () => {
  it('non-UTF-8 bytes (a Latin-1 hook command) → 422, no U+FFFD written (point 5)', async () => {
    const latin1 = Buffer.concat([Buffer.from('{"hooks": {"x": "caf'), Buffer.from([0xe9]), Buffer.from('"}, "env": {}}\n')]);
    await fs.writeFile(settingsFile(), latin1);
    const res = await apply('a');
    expect(res.status).toBe(422);
    expect(res.body.error).toBe('Claude Code settings cannot be read faithfully');
    expect(res.body.message).toContain('UTF-8');
    expect(await fs.readFile(settingsFile())).toEqual(latin1);
  });

  it('a settings.json nested 100,000 deep → 422, not 500 (point 12)', async () => {
    const deep = `{"env": {}, "x": ${'['.repeat(100_000)}${']'.repeat(100_000)}}`;
    await fs.writeFile(settingsFile(), deep);
    const res = await apply('a');
    expect(res.status).toBe(422);
    expect(res.body.message).toContain('nested deeper than');
    expect((await app.json('GET', '/api/claude-code')).status).toBe(200);
    expect(await fs.readFile(settingsFile(), 'utf8')).toBe(deep);
  });

  it('a 48 MiB settings.json is not read: 413, untouched (point 12)', async () => {
    const big = `{"env": {}, "pad": "${'x'.repeat(48 * 1024 * 1024)}"}`;
    await fs.writeFile(settingsFile(), big);
    const res = await apply('a');
    expect(res.status).toBe(413);
    expect(res.body.error).toBe('File too large to read');
    expect((await fs.stat(settingsFile())).size).toBe(big.length);
    await fs.rm(settingsFile());
  });

  it('a file its owner made read-only (0444) → 409 that says so, not replaced (point 8)', async () => {
    await fs.writeFile(settingsFile(), USER_FILE, { mode: 0o444 });
    await fs.chmod(settingsFile(), 0o444);
    const res = await apply('a');
    expect(res.status).toBe(409);
    expect(res.body.error).toBe('Claude Code settings are read-only');
    expect(res.body.message).toContain('0444');
    expect(await fs.readFile(settingsFile(), 'utf8')).toBe(USER_FILE);
    expect((await fs.stat(settingsFile())).mode & 0o777).toBe(0o444);
    await fs.chmod(settingsFile(), 0o644);
  });

  it('an env with a secret narrows a world-readable file to 0600 and says so; without one the mode stays (point 8)', async () => {
    await fs.writeFile(settingsFile(), USER_FILE, { mode: 0o644 });
    await fs.chmod(settingsFile(), 0o644);
    const plain = await apply('a');
    expect(plain.body).toMatchObject({ mode: '0644', narrowed: false });
    await writeProfile('tok', { PROVIDER_BASE_URL: 'https://t.example', PROVIDER_AUTH_TOKEN: 'sk-secret' });
    const secret = await apply('tok');
    expect(secret.body).toMatchObject({ mode: '0600', narrowed: true });
    expect((await fs.stat(settingsFile())).mode & 0o777).toBe(0o600);
  });
});

describe('a FIFO at settings.json (point 9)', () => {
  it('five concurrent GETs answer 422 at once and other file-reading routes keep answering', async () => {
    execFileSync('mkfifo', [settingsFile()]);
    try {
      const gets = await Promise.all(Array.from({ length: 5 }, () => app.json('GET', '/api/claude-code')));
      for (const res of gets) {
        expect(res.status).toBe(422);
        expect(res.body.message).toContain('not a regular file');
      }
      const [profile, applied] = await Promise.all([app.json('GET', '/api/settings/a'), apply('a')]);
      expect(profile.status).toBe(200);
      expect(applied.status).toBe(422);
      expect((await fs.lstat(settingsFile())).isFIFO()).toBe(true);
    } finally {
      await fs.rm(settingsFile(), { force: true });
    }
  }, 15_000);
});

describe('the card tells what the file holds after the applied profile is edited (issue 28 point 2)', () => {
  it('a profile edit through the API is followed into settings.json, even after Claude Code saved other keys', async () => {
    await fs.writeFile(settingsFile(), USER_FILE);
    expect((await apply('a')).status).toBe(200);
    // Claude Code's own save (/model writes a top-level key): not one of the keys Switchboard wrote
    const saved = JSON.parse(await fs.readFile(settingsFile(), 'utf8'));
    await fs.writeFile(settingsFile(), JSON.stringify({ ...saved, model: 'sonnet' }, null, 2));
    const put = await app.json('PUT', '/api/settings/a', { settings: { env: { PROVIDER_BASE_URL: 'https://a.example', PROVIDER_MODEL: 'model-a2' } } });
    expect(put.status).toBe(200);
    expect((await envOf()).ANTHROPIC_MODEL).toBe('model-a2');
    expect(JSON.parse(await fs.readFile(settingsFile(), 'utf8')).model).toBe('sonnet');
    expect((await app.json('GET', '/api/claude-code')).body.staleKeys).toEqual([]);
  });

  it('when it cannot follow, GET names the keys that differ, read from both files; a re-apply clears them', async () => {
    await fs.writeFile(settingsFile(), USER_FILE);
    expect((await apply('a')).status).toBe(200);
    // edited behind the app's back (an editor): the app knows nothing of it
    await writeProfile('a', { PROVIDER_BASE_URL: 'https://a.example', PROVIDER_MODEL: 'model-a3' });
    const stale = (await app.json('GET', '/api/claude-code')).body;
    expect(stale.staleKeys).toEqual(['ANTHROPIC_MODEL', 'PROVIDER_MODEL']);
    expect((await apply('a')).status).toBe(200);
    expect((await app.json('GET', '/api/claude-code')).body.staleKeys).toEqual([]);
  });
});

describe('temp files a killed apply left in the agent dir (point 12)', () => {
  it('are swept at start: only settings.json\'s own temp names, only of writers that are gone', async () => {
    const dead = execFileSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))']).toString();
    const names = {
      ours: `.settings.json.${dead}.0123456789ab.tmp`,
      otherFile: `.history.jsonl.${dead}.0123456789ab.tmp`,
      live: `.settings.json.${process.pid}.0123456789ab.tmp`,
      unrelated: 'settings.json.tmp',
    };
    const other = await startTestApp({
      before: async ({ agentDir }) => {
        for (const name of Object.values(names)) await fs.writeFile(path.join(agentDir, name), '{}');
      },
    });
    try {
      const left = await fs.readdir(other.agentDir);
      expect(left).not.toContain(names.ours);
      expect(left).toEqual(expect.arrayContaining([names.otherFile, names.live, names.unrelated]));
    } finally {
      await other.stop();
    }
  });
});

describe('a record written by the previous version (one level of undo)', () => {
  it('is understood: the file it kept becomes the original, restore brings it back, its keys give back the user values', async () => {
    const before = '{"env": {"ANTHROPIC_MODEL": "mine"}}\n';
    const written = '{\n  "env": {\n    "ANTHROPIC_MODEL": "old-a",\n    "PROVIDER_MODEL": "old-a"\n  }\n}\n';
    const old = await startTestApp({
      before: async ({ home, agentDir }) => {
        await fs.writeFile(path.join(agentDir, 'settings.json'), written);
        await fs.mkdir(path.join(home, 'claude-code'), { recursive: true });
        const { createHash } = await import('node:crypto');
        const hash = (s: string) => createHash('sha256').update(s).digest('hex');
        await fs.writeFile(
          path.join(home, 'claude-code', 'applied.json'),
          JSON.stringify({
            path: path.join(agentDir, 'settings.json'),
            profile: 'a',
            appliedAt: 1,
            keys: ['ANTHROPIC_MODEL', 'PROVIDER_MODEL'],
            values: { ANTHROPIC_MODEL: hash('old-a'), PROVIDER_MODEL: hash('old-a') },
            written: { sha256: hash(written), mtime: 1 },
            previous: { existed: true, contentBase64: Buffer.from(before).toString('base64'), mode: 0o600 },
          }),
        );
      },
    });
    try {
      await fs.writeFile(path.join(old.home, 'b.settings.json'), JSON.stringify({ env: { PROVIDER_BASE_URL: 'https://b.example' } }));
      expect((await old.json('GET', '/api/claude-code')).body).toMatchObject({ applied: { profile: 'a' }, canRestore: true, undoSteps: 1 });
      expect((await old.json('POST', '/api/claude-code/apply', { profile: 'b' })).status).toBe(200);
      const env = JSON.parse(await fs.readFile(path.join(old.agentDir, 'settings.json'), 'utf8')).env;
      expect(env.ANTHROPIC_MODEL).toBe('mine');
      expect(env.PROVIDER_MODEL).toBeUndefined();
      expect((await old.json('POST', '/api/claude-code/restore')).status).toBe(200);
      expect(await fs.readFile(path.join(old.agentDir, 'settings.json'), 'utf8')).toBe(before);
    } finally {
      await old.stop();
    }
  });
});
