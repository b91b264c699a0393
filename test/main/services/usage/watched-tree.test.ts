import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FULL_WALK_EVERY_MS, WatchedTree, type TreeLook } from '../../../../main/services/usage/watched-tree.js';

// The directory watches behind an incremental refresh (issue 32 point 3): after the watches are
// armed and one walk has run, a look returns only what changed, and still sees every kind of change.
let dir: string;
const trees: WatchedTree[] = [];
let now = 1_000_000;

beforeEach(async () => {
  dir = await fs.mkdtemp(path.join(os.tmpdir(), 'switchboard-watched-tree-'));
  await fs.mkdir(path.join(dir, 'p1'), { recursive: true });
  await fs.writeFile(path.join(dir, 'p1', 'a.jsonl'), 'a\n');
  await fs.writeFile(path.join(dir, 'p1', 'b.jsonl'), 'b\n');
  await fs.writeFile(path.join(dir, 'p1', 'notes.txt'), 'not read\n');
});
afterEach(async () => {
  for (const t of trees.splice(0)) t.close();
  await fs.rm(dir, { recursive: true, force: true });
});

async function liveTree(budget = 100): Promise<WatchedTree> {
  const tree = new WatchedTree([dir], (f) => f.endsWith('.jsonl'), { left: budget }, () => now);
  trees.push(tree);
  expect((await tree.look()).full).toBe(true); // the first look walks
  await tree.arm();
  expect((await tree.look()).full).toBe(true); // and the one after arming, with the watches set
  return tree;
}

const names = (look: TreeLook) => look.files.map((f) => path.relative(dir, f.path)).sort();
const gone = (look: TreeLook) => look.removed.map((f) => path.relative(dir, f)).sort();

describe('WatchedTree', () => {
  it('with nothing changed, a look stats nothing and reports nothing', async () => {
    const tree = await liveTree();
    expect(await tree.look()).toEqual({ full: false, files: [], removed: [], membership: false });
    expect(tree.size).toBe(2);
  });

  it('an append is seen by the next look, with the new size, and only that file', async () => {
    const tree = await liveTree();
    await fs.appendFile(path.join(dir, 'p1', 'a.jsonl'), 'more\n');
    const look = await tree.look();
    expect(look.full).toBe(false);
    expect(names(look)).toEqual(['p1/a.jsonl']);
    expect(look.files[0]!.size).toBe('a\nmore\n'.length);
    expect(look.membership).toBe(false);
  });

  it('a rotation (rename) drops the old name and finds the new one', async () => {
    const tree = await liveTree();
    await fs.rename(path.join(dir, 'p1', 'a.jsonl'), path.join(dir, 'p1', 'a.1.jsonl'));
    const look = await tree.look();
    expect(look.full).toBe(false);
    expect(gone(look)).toEqual(['p1/a.jsonl']);
    expect(names(look)).toEqual(['p1/a.1.jsonl']);
    expect(look.membership).toBe(true);
    // A new file written under the old name is a new file.
    await fs.writeFile(path.join(dir, 'p1', 'a.jsonl'), 'fresh\n');
    expect(names(await tree.look())).toEqual(['p1/a.jsonl']);
    expect(tree.size).toBe(3);
  });

  it('a deleted file is reported gone; a file the tree does not read is ignored', async () => {
    const tree = await liveTree();
    await fs.rm(path.join(dir, 'p1', 'b.jsonl'));
    await fs.appendFile(path.join(dir, 'p1', 'notes.txt'), 'x\n');
    const look = await tree.look();
    expect(gone(look)).toEqual(['p1/b.jsonl']);
    expect(names(look)).toEqual(['p1/a.jsonl']); // a sibling changed: the files beside it are stat'ed again
    expect(tree.size).toBe(1);
  });

  it('a new directory is watched and walked; a removed one takes its files with it', async () => {
    const tree = await liveTree();
    await fs.mkdir(path.join(dir, 'p2', 'deep'), { recursive: true });
    await fs.writeFile(path.join(dir, 'p2', 'deep', 'c.jsonl'), 'c\n');
    expect(names(await tree.look())).toEqual(['p2/deep/c.jsonl']);
    // Its watch works: an append below it is seen without a walk.
    await fs.appendFile(path.join(dir, 'p2', 'deep', 'c.jsonl'), 'c2\n');
    const appended = await tree.look();
    expect(appended.full).toBe(false);
    expect(names(appended)).toEqual(['p2/deep/c.jsonl']);
    await fs.rm(path.join(dir, 'p2'), { recursive: true });
    const look = await tree.look();
    expect(gone(look)).toEqual(['p2/deep/c.jsonl']);
    expect(tree.size).toBe(2);
  });

  it('a symlink below the roots makes every look a walk (its target is not watched)', async () => {
    const other = await fs.mkdtemp(path.join(os.tmpdir(), 'switchboard-watched-link-'));
    try {
      await fs.writeFile(path.join(other, 'l.jsonl'), 'l\n');
      await fs.symlink(other, path.join(dir, 'linked'));
      const tree = await liveTree();
      expect(tree.size).toBe(3);
      await fs.appendFile(path.join(other, 'l.jsonl'), 'l2\n');
      const look = await tree.look();
      expect(look.full).toBe(true);
      expect(look.files.find((f) => f.path.endsWith('l.jsonl'))!.size).toBe(5);
    } finally {
      await fs.rm(other, { recursive: true, force: true });
    }
  });

  it('without watch budget, or after FULL_WALK_EVERY_MS, a look walks', async () => {
    const starved = await liveTree(0);
    expect((await starved.look()).full).toBe(true);
    const tree = await liveTree();
    expect((await tree.look()).full).toBe(false);
    now += FULL_WALK_EVERY_MS;
    expect((await tree.look()).full).toBe(true);
    expect((await tree.look()).full).toBe(false);
  });

  it('a root that appears later is found (nothing watches its parent, so the look walks)', async () => {
    const late = path.join(dir, 'late');
    const tree = new WatchedTree([path.join(dir, 'p1'), late], (f) => f.endsWith('.jsonl'), { left: 100 }, () => now);
    trees.push(tree);
    await tree.look();
    await tree.arm();
    await tree.look();
    await fs.mkdir(late);
    await fs.writeFile(path.join(late, 'd.jsonl'), 'd\n');
    const look = await tree.look();
    expect(look.full).toBe(true);
    expect(tree.size).toBe(3);
  });
});
