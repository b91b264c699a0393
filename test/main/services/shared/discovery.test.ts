import { execFileSync } from 'node:child_process';
import fs from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { listItems, MAX_COMMAND_DEPTH } from '../../../../main/services/shared/discovery.js';
import { makeTempDir, writeTree } from '../../../helpers/temp-dir.js';

let dir: string;
let cleanup: () => Promise<void>;
let root: string;
beforeEach(async () => {
  ({ dir, cleanup } = await makeTempDir('switchboard-discovery-'));
  root = path.join(dir, 'root');
  await fs.mkdir(root);
});
afterEach(() => cleanup());

describe('commands', () => {
  it('finds *.md recursively, names them by relative path without .md, sorted by code units', async () => {
    await writeTree(root, {
      'git/commit.md': '---\ndescription: Commit\n---\n',
      'git/push.md': 'Push it',
      'Zeta.md': 'Upper case sorts before lower case',
      'alpha.md': '# Only a heading',
      'notes.txt': 'not markdown',
      '.hidden.md': 'skipped',
      '.git/config.md': 'skipped',
    });
    const items = await listItems(root, 'commands');
    expect(items).toEqual([
      { name: 'Zeta', description: 'Upper case sorts before lower case', path: 'Zeta.md', type: 'command' },
      { name: 'alpha', description: 'No description', path: 'alpha.md', type: 'command' },
      { name: 'git/commit', description: 'Commit', path: 'git/commit.md', type: 'command' },
      { name: 'git/push', description: 'Push it', path: 'git/push.md', type: 'command' },
    ]);
  });

  it(`searches ${MAX_COMMAND_DEPTH} directory levels deep and no deeper`, async () => {
    const deepest = 'l1/l2/l3/l4/l5/found.md';
    await writeTree(root, { [deepest]: 'x', 'l1/l2/l3/l4/l5/l6/too-deep.md': 'x' });
    const items = await listItems(root, 'commands');
    expect(items.map((i) => i.path)).toEqual([deepest]);
  });

  it('survives symlink loops and lists a directory reached through a link inside the root once', async () => {
    await writeTree(root, { 'a/x.md': 'x' });
    await fs.symlink(root, path.join(root, 'a', 'loop'));
    await fs.symlink(path.join(root, 'a'), path.join(root, 'again'));
    await fs.symlink('self.md', path.join(root, 'self.md')); // ELOOP
    const items = await listItems(root, 'commands');
    // `again` is the same directory as `a`: walked once, under whichever name came first.
    expect(items.map((i) => i.path)).toEqual(['a/x.md']);
  });

  it('skips links that lead outside the root, dangling links, directories named .md and FIFOs', async () => {
    await writeTree(dir, { 'outside/secret.md': 'secret', 'outside-file.md': 'secret' });
    await writeTree(root, { 'ok.md': 'fine', 'dir.md/inner.md': 'inner' });
    await fs.symlink(path.join(dir, 'outside'), path.join(root, 'escape'));
    await fs.symlink(path.join(dir, 'outside-file.md'), path.join(root, 'escape.md'));
    await fs.symlink(path.join(dir, 'gone.md'), path.join(root, 'dangling.md'));
    if (process.platform !== 'win32') execFileSync('mkfifo', [path.join(root, 'pipe.md')]);
    const items = await listItems(root, 'commands');
    expect(items.map((i) => i.path)).toEqual(['dir.md/inner.md', 'ok.md']);
  });

  it('lists a file linked from inside the root to another place inside it', async () => {
    await writeTree(root, { 'real/doc.md': 'Real doc' });
    await fs.symlink(path.join(root, 'real', 'doc.md'), path.join(root, 'alias.md'));
    const items = await listItems(root, 'commands');
    expect(items.find((i) => i.name === 'alias')).toEqual({ name: 'alias', description: 'Real doc', path: 'alias.md', type: 'command' });
  });

  it('answers an empty list for a missing root or a root that is a dangling link', async () => {
    expect(await listItems(path.join(dir, 'nope'), 'commands')).toEqual([]);
    await fs.symlink(path.join(dir, 'gone'), path.join(dir, 'dangling-root'));
    expect(await listItems(path.join(dir, 'dangling-root'), 'commands')).toEqual([]);
  });

  it('reads descriptions from the head of a large file only', async () => {
    await writeTree(root, { 'big.md': `First line\n${'y'.repeat(3 * 1024 * 1024)}` });
    expect((await listItems(root, 'commands'))[0]?.description).toBe('First line');
  });
});

describe('skills', () => {
  it('lists directories holding SKILL.md, named by the directory, path <dir>/SKILL.md', async () => {
    await writeTree(root, {
      'pdf-tools/SKILL.md': '---\nname: pdf\ndescription: Work with PDFs\n---\n',
      'pdf-tools/reference.md': 'not an item',
      'empty-dir/README.md': 'no SKILL.md',
      'nested/deeper/SKILL.md': 'only direct children count',
      'loose.md': 'a file, not a skill',
    });
    expect(await listItems(root, 'skills')).toEqual([
      { name: 'pdf-tools', description: 'Work with PDFs', path: 'pdf-tools/SKILL.md', type: 'skill' },
    ]);
  });

  it('skips a skill directory linked from outside the root', async () => {
    await writeTree(dir, { 'elsewhere/SKILL.md': 'outside' });
    await fs.symlink(path.join(dir, 'elsewhere'), path.join(root, 'linked'));
    expect(await listItems(root, 'skills')).toEqual([]);
  });
});

describe('agents', () => {
  it('lists top-level *.md files named without .md', async () => {
    await writeTree(root, { 'reviewer.md': 'Reviews code', 'sub/nested.md': 'not listed' });
    expect(await listItems(root, 'agents')).toEqual([{ name: 'reviewer', description: 'Reviews code', path: 'reviewer.md', type: 'agent' }]);
  });
});
