import fs from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../helpers/app.js';
import { rawRequest } from '../../helpers/raw-http.js';
import { writeTree } from '../../helpers/temp-dir.js';

const CANARY = 'CANARY-shared-outside-0b1d';
const INVALID_PATH = { error: 'Invalid or missing path parameter' };

let app: TestApp;
let outside: string;
beforeAll(async () => {
  app = await startTestApp({
    before: async ({ home, agentDir }) => {
      outside = path.join(path.dirname(home), 'outside');
      await writeTree(outside, { 'x.md': `# ${CANARY}\n${CANARY}`, 'dir/y.md': CANARY });
      await writeTree(agentDir, {
        'commands/git/commit.md': '---\ndescription: Create a commit\n---\n# Commit\nBody',
        'commands/review.md': '# Review\n\nReview the diff carefully.',
        'commands/dir.md/inner.md': 'a directory named like markdown',
        'commands/big.md': `Big\n${'z'.repeat(2 * 1024 * 1024)}`,
        'skills/pdf-tools/SKILL.md': '---\nname: pdf\ndescription: Work with PDF files\n---\n',
        'agents/reviewer.md': 'Reviews pull requests',
      });
      await fs.symlink(path.join(outside, 'x.md'), path.join(agentDir, 'commands', 'escape.md'));
      await fs.symlink(path.join(outside, 'dir'), path.join(agentDir, 'commands', 'escape-dir'));
    },
  });
});
afterAll(() => app.stop());

const content = (query: string) => rawRequest(app.port, 'GET', `/api/shared/content?${query}`);

describe('before the shared dir exists', () => {
  it('summary says missing and lists are empty', async () => {
    expect(await app.json('GET', '/api/shared/summary')).toEqual({
      status: 200,
      body: { commands: 0, skills: 0, agents: 0, total: 0, symlinkStatus: 'missing' },
    });
    expect(await app.json('GET', '/api/shared/commands')).toEqual({ status: 200, body: { items: [] } });
  });

  it('content of a type without a directory is 404', async () => {
    const res = await app.json('GET', '/api/shared/content?type=commands&path=review.md');
    expect(res.status).toBe(404);
    expect(res.body.error).toBe('Shared content not found');
  });
});

describe('POST /api/shared/link', () => {
  it('creates the links and answers the new summary', async () => {
    const res = await app.json('POST', '/api/shared/link');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ commands: 4, skills: 1, agents: 1, total: 6, symlinkStatus: 'ok' });
    expect(res.body.links.map((l: { action: string }) => l.action)).toEqual(['created', 'created', 'created']);
    expect(await fs.realpath(path.join(app.home, 'shared', 'skills'))).toBe(await fs.realpath(path.join(app.agentDir, 'skills')));
  });
});

describe('lists', () => {
  it('GET /api/shared/commands', async () => {
    expect(await app.json('GET', '/api/shared/commands')).toEqual({
      status: 200,
      body: {
        items: [
          { name: 'big', description: 'Big', path: 'big.md', type: 'command' },
          { name: 'dir.md/inner', description: 'a directory named like markdown', path: 'dir.md/inner.md', type: 'command' },
          { name: 'git/commit', description: 'Create a commit', path: 'git/commit.md', type: 'command' },
          { name: 'review', description: 'Review the diff carefully.', path: 'review.md', type: 'command' },
        ],
      },
    });
  });

  it('GET /api/shared/skills', async () => {
    expect((await app.json('GET', '/api/shared/skills')).body).toEqual({
      items: [{ name: 'pdf-tools', description: 'Work with PDF files', path: 'pdf-tools/SKILL.md', type: 'skill' }],
    });
  });

  it('GET /api/shared/agents', async () => {
    expect((await app.json('GET', '/api/shared/agents')).body).toEqual({
      items: [{ name: 'reviewer', description: 'Reviews pull requests', path: 'reviewer.md', type: 'agent' }],
    });
  });

  it('GET /api/shared/summary counts what the lists show', async () => {
    expect((await app.json('GET', '/api/shared/summary')).body).toEqual({ commands: 4, skills: 1, agents: 1, total: 6, symlinkStatus: 'ok' });
  });
});

describe('GET /api/shared/content', () => {
  it('answers {type, path, content} for a command, a nested command and a skill', async () => {
    expect(await app.json('GET', '/api/shared/content?type=commands&path=review.md')).toEqual({
      status: 200,
      body: { type: 'commands', path: 'review.md', content: '# Review\n\nReview the diff carefully.' },
    });
    const nested = await app.json('GET', '/api/shared/content?type=commands&path=git%2Fcommit.md');
    expect(nested.body.path).toBe('git/commit.md');
    const skill = await app.json('GET', '/api/shared/content?type=skills&path=pdf-tools/SKILL.md');
    expect(skill).toMatchObject({ status: 200, body: { type: 'skills', path: 'pdf-tools/SKILL.md' } });
  });

  it.each([
    ['missing', 'path=review.md'],
    ['unknown', 'type=plugins&path=review.md'],
    ['singular', 'type=command&path=review.md'],
    ['repeated', 'type=commands&type=skills&path=review.md'],
    ['empty', 'type=&path=review.md'],
  ])('400 Invalid or missing type parameter: %s type', async (_name, query) => {
    const res = await content(query);
    expect(res.status).toBe(400);
    expect(JSON.parse(res.body)).toMatchObject({ error: 'Invalid or missing type parameter' });
  });

  it.each([
    ['missing', 'type=commands'],
    ['empty', 'type=commands&path='],
    ['repeated', 'type=commands&path=review.md&path=big.md'],
    ['not markdown', 'type=commands&path=notes.txt'],
  ])('400 Invalid or missing path parameter: %s path', async (_name, query) => {
    const res = await content(query);
    expect(res.status).toBe(400);
    expect(JSON.parse(res.body)).toMatchObject(INVALID_PATH);
  });

  const traversals: Array<[string, () => string]> = [
    ['../ (raw)', () => '../outside/x.md'],
    ['deep ../', () => '../../../../../../../../../..' + path.join(outside, 'x.md')],
    ['../ inside a path', () => 'git/../../outside/x.md'],
    ['absolute path', () => path.join(outside, 'x.md')],
    ['absolute path, encoded', () => encodeURIComponent(path.join(outside, 'x.md'))],
    ['%2e%2e%2f', () => '%2e%2e%2foutside%2fx.md'],
    ['..%2f', () => '..%2foutside%2fx.md'],
    ['double-encoded %252e%252e%252f', () => '%252e%252e%252foutside%252fx.md'],
    ['triple-encoded', () => '%25252e%25252e%25252foutside%25252fx.md'],
    ['mixed encoded ..%252f', () => '..%252foutside%252fx.md'],
    ['backslashes', () => '..\\outside\\x.md'],
    ['encoded backslashes', () => '..%5coutside%5cx.md'],
    ['double-encoded backslash', () => '..%255coutside%255cx.md'],
    ['NUL', () => 'review.md%00.md'],
    ['double-encoded NUL', () => 'review%2500.md'],
    ['Windows drive', () => 'C:%5CWindows%5Cx.md'],
    ['UNC', () => '%5C%5Cserver%5Cshare%5Cx.md'],
    ['symlinked file pointing outside', () => 'escape.md'],
    ['symlinked dir pointing outside', () => 'escape-dir/y.md'],
  ];
  it.each(traversals)('refuses traversal: %s', async (_name, make) => {
    const res = await content(`type=commands&path=${make()}`);
    expect(res.status, res.body).toBe(400);
    expect(JSON.parse(res.body)).toMatchObject(INVALID_PATH);
    expect(res.body).not.toContain(CANARY);
  });

  it('refuses traversal for every type', async () => {
    for (const type of ['commands', 'skills', 'agents']) {
      const res = await content(`type=${type}&path=..%2f..%2foutside%2fx.md`);
      expect(res.status).toBe(400);
    }
  });

  it.each([
    ['a missing file', 'nope.md'],
    ['a directory named .md', 'dir.md'],
    ['a missing file below a directory', 'git/nope.md'],
  ])('404 Shared content not found: %s', async (_name, rel) => {
    const res = await app.json('GET', `/api/shared/content?type=commands&path=${rel}`);
    expect(res.status).toBe(404);
    expect(res.body.error).toBe('Shared content not found');
  });

  it('413 for a file over 2 MiB, with a text saying so', async () => {
    const res = await app.json('GET', '/api/shared/content?type=commands&path=big.md');
    expect(res).toEqual({ status: 413, body: { error: 'Shared content too large', message: 'big.md is 2.0 MiB; the limit is 2 MiB' } });
  });
});

describe('summary after the agent dir changes', () => {
  it('says broken when a link target is removed, and ok again after linking', async () => {
    await fs.rename(path.join(app.agentDir, 'agents'), path.join(app.agentDir, 'agents-moved'));
    expect((await app.json('GET', '/api/shared/summary')).body.symlinkStatus).toBe('broken');
    const relinked = await app.json('POST', '/api/shared/link');
    expect(relinked.body.symlinkStatus).toBe('ok');
    expect(relinked.body.agents).toBe(0);
  });
});

describe('POST /api/shared/link refusing', () => {
  let refusing: TestApp;
  beforeAll(async () => {
    refusing = await startTestApp({
      before: async ({ home }) => writeTree(path.join(home, 'shared'), { 'commands/mine.md': 'user data' }),
    });
  });
  afterAll(() => refusing.stop());

  it('409 with the reason and the summary; the user files stay', async () => {
    const res = await refusing.json('POST', '/api/shared/link');
    expect(res.status).toBe(409);
    expect(res.body.error).toBe('Cannot link shared directories');
    expect(res.body.message).toContain(`${path.join(refusing.home, 'shared', 'commands')} is a real directory with 1 entry`);
    expect(res.body).toMatchObject({ symlinkStatus: 'partial', commands: 1 });
    expect(await fs.readFile(path.join(refusing.home, 'shared', 'commands', 'mine.md'), 'utf8')).toBe('user data');
    expect((await refusing.json('GET', '/api/shared/summary')).body.symlinkStatus).toBe('partial');
  });
});
