import fs from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { linkSharedDirs } from '../../../../main/services/shared/link.js';
import { symlinkStatus, type SharedLocations } from '../../../../main/services/shared/link-status.js';
import { makeTempDir, writeTree } from '../../../helpers/temp-dir.js';

let dir: string;
let cleanup: () => Promise<void>;
let where: SharedLocations;
beforeEach(async () => {
  ({ dir, cleanup } = await makeTempDir('switchboard-link-'));
  where = { sharedDir: path.join(dir, 'config', 'shared'), agentDir: path.join(dir, 'agent') };
});
afterEach(() => cleanup());

const link = (type: string) => path.join(where.sharedDir, type);
const target = (type: string) => path.join(where.agentDir, type);

describe('symlinkStatus (decisions §3)', () => {
  it('is missing without a shared dir, and with a shared dir holding no links', async () => {
    expect(await symlinkStatus(where)).toBe('missing');
    await fs.mkdir(where.sharedDir, { recursive: true });
    expect(await symlinkStatus(where)).toBe('missing');
  });

  it('is partial when some types link into the agent dir', async () => {
    await fs.mkdir(where.sharedDir, { recursive: true });
    await fs.mkdir(target('commands'), { recursive: true });
    await fs.symlink(target('commands'), link('commands'));
    await fs.mkdir(link('skills')); // a real directory does not count
    expect(await symlinkStatus(where)).toBe('partial');
  });

  it('is broken when a link target is gone, even if the others are fine', async () => {
    await linkSharedDirs(where);
    await fs.rm(target('agents'), { recursive: true });
    expect(await symlinkStatus(where)).toBe('broken');
  });

  it('does not count a link to somewhere else as linked', async () => {
    await linkSharedDirs(where);
    await fs.mkdir(path.join(dir, 'other'));
    await fs.rm(link('skills'));
    await fs.symlink(path.join(dir, 'other'), link('skills'));
    expect(await symlinkStatus(where)).toBe('partial');
  });
});

describe('linkSharedDirs', () => {
  it('creates the three links and their targets; the status is then ok', async () => {
    const outcomes = await linkSharedDirs(where);
    expect(outcomes.map((o) => [o.type, o.action])).toEqual([
      ['commands', 'created'],
      ['skills', 'created'],
      ['agents', 'created'],
    ]);
    for (const type of ['commands', 'skills', 'agents']) {
      expect((await fs.lstat(link(type))).isSymbolicLink()).toBe(true);
      expect(await fs.realpath(link(type))).toBe(target(type));
    }
    expect(await symlinkStatus(where)).toBe('ok');
  });

  it('is idempotent: a second run keeps the links', async () => {
    await linkSharedDirs(where);
    const again = await linkSharedDirs(where);
    expect(again.map((o) => o.action)).toEqual(['kept', 'kept', 'kept']);
  });

  it('recreates a target directory that was removed, so the existing link works again', async () => {
    await linkSharedDirs(where);
    await fs.rm(target('skills'), { recursive: true });
    expect(await symlinkStatus(where)).toBe('broken');
    const again = await linkSharedDirs(where);
    expect(again.map((o) => o.action)).toEqual(['kept', 'kept', 'kept']);
    expect(await symlinkStatus(where)).toBe('ok');
  });

  it('replaces dangling links, links elsewhere and empty directories', async () => {
    await fs.mkdir(where.sharedDir, { recursive: true });
    await fs.symlink(path.join(dir, 'gone'), link('commands'));
    await fs.mkdir(path.join(dir, 'other'));
    await fs.symlink(path.join(dir, 'other'), link('skills'));
    await fs.mkdir(link('agents'));
    const outcomes = await linkSharedDirs(where);
    expect(outcomes.map((o) => o.action)).toEqual(['replaced', 'replaced', 'replaced']);
    expect(await symlinkStatus(where)).toBe('ok');
    expect(await fs.readdir(path.join(dir, 'other'))).toEqual([]); // the old link target is untouched
  });

  it('refuses a real directory with files in it and a plain file, deleting nothing', async () => {
    await writeTree(where.sharedDir, { 'commands/mine.md': 'user data', skills: 'a file' });
    const outcomes = await linkSharedDirs(where);
    const byType = Object.fromEntries(outcomes.map((o) => [o.type, o]));
    expect(byType.commands?.action).toBe('refused');
    expect(byType.commands?.reason).toContain('is a real directory with 1 entry');
    expect(byType.commands?.reason).toContain('Nothing was deleted');
    expect(byType.skills?.action).toBe('refused');
    expect(byType.skills?.reason).toContain('is a file');
    expect(byType.agents?.action).toBe('created');
    expect(await fs.readFile(path.join(link('commands'), 'mine.md'), 'utf8')).toBe('user data');
    expect(await fs.readFile(link('skills'), 'utf8')).toBe('a file');
    expect(await symlinkStatus(where)).toBe('partial');
  });

  it('refuses when the agent dir target is a file', async () => {
    await writeTree(where.agentDir, { commands: 'not a dir' });
    const [commands] = await linkSharedDirs(where);
    expect(commands?.action).toBe('refused');
    expect(commands?.reason).toMatch(/commands/);
  });

  it('creates junctions on Windows (the link type passed to symlink)', async () => {
    // On POSIX, Node ignores the type argument, so this runs the Windows branch for real.
    const outcomes = await linkSharedDirs(where, 'win32');
    expect(outcomes.map((o) => o.action)).toEqual(['created', 'created', 'created']);
    await fs.rm(link('skills'));
    await fs.symlink(path.join(dir, 'gone'), link('skills'));
    const again = await linkSharedDirs(where, 'win32');
    expect(again.map((o) => o.action)).toEqual(['kept', 'replaced', 'kept']);
  });
});
