import { execFile } from 'node:child_process';
import fs from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runShared } from '../../../main/cli/shared.js';
import { CliError } from '../../../main/cli/args.js';
import { nodeEntry } from '../../../main/infra/node-entry.js';
import { SharedService } from '../../../main/services/shared/service.js';
import { makeTempDir, writeTree } from '../../helpers/temp-dir.js';

let dir: string;
let cleanup: () => Promise<void>;
let env: NodeJS.ProcessEnv;
let configDir: string;
let agentDir: string;
beforeEach(async () => {
  ({ dir, cleanup } = await makeTempDir('switchboard-cli-shared-'));
  configDir = path.join(dir, 'config');
  agentDir = path.join(dir, 'agent');
  env = { SWITCHBOARD_HOME: configDir, SWITCHBOARD_AGENT_DIR: agentDir, HOME: dir };
});
afterEach(() => cleanup());

function capture() {
  const out: string[] = [];
  const err: string[] = [];
  return { io: { out: (t: string) => void out.push(t), err: (t: string) => void err.push(t) }, out, err };
}

const summary = () => new SharedService({ sharedDir: path.join(configDir, 'shared'), agentDir }).summary();

describe('switchboard shared link (in process)', () => {
  it('links the three directories, exits 0, and the summary says ok', async () => {
    await writeTree(agentDir, { 'commands/git/commit.md': 'Commit', 'agents/a.md': 'A' });
    const { io, out, err } = capture();
    expect(await runShared(['link'], env, io)).toBe(0);
    expect(err).toEqual([]);
    expect(out.join('')).toContain(`created  ${path.join(configDir, 'shared', 'commands')} -> ${path.join(agentDir, 'commands')}`);
    expect(out.at(-1)).toBe('Shared data linked (symlinkStatus: ok): 1 commands, 0 skills, 1 agents\n');
    expect(await summary()).toEqual({ commands: 1, skills: 0, agents: 1, total: 2, symlinkStatus: 'ok' });
    // The missing targets were created.
    expect((await fs.stat(path.join(agentDir, 'skills'))).isDirectory()).toBe(true);
  });

  it('exits 1 with the reason when a real directory with files is in the way, deleting nothing', async () => {
    await writeTree(path.join(configDir, 'shared'), { 'skills/my-skill/SKILL.md': 'mine' });
    const { io, err } = capture();
    expect(await runShared(['link'], env, io)).toBe(1);
    const text = err.join('');
    expect(text).toContain(`refused  ${path.join(configDir, 'shared', 'skills')}: `);
    expect(text).toContain('is a real directory with 1 entry');
    expect(text).toContain('shared data is not fully linked (symlinkStatus: partial)');
    expect(await fs.readFile(path.join(configDir, 'shared', 'skills', 'my-skill', 'SKILL.md'), 'utf8')).toBe('mine');
  });

  it('is a usage error (CliError) for a missing or unknown subcommand or extra arguments', async () => {
    const { io } = capture();
    await expect(runShared([], env, io)).rejects.toBeInstanceOf(CliError);
    await expect(runShared(['unlink'], env, io)).rejects.toThrow("unknown shared command 'unlink'");
    await expect(runShared(['link', '--force'], env, io)).rejects.toThrow("unexpected argument '--force'");
  });
});

describe('switchboard shared link (the real CLI entry, as a child process)', () => {
  const run = promisify(execFile);
  const cli = (args: string[]) => {
    const entry = nodeEntry('main/cli/main');
    return run(entry.command, [...entry.args, ...args], { env: { ...process.env, ...entry.env, ...env }, timeout: 30_000 });
  };

  it('exits 0 and prints the summary; a second run keeps the links', async () => {
    const first = await cli(['shared', 'link']);
    expect(first.stdout).toContain('Shared data linked (symlinkStatus: ok)');
    const second = await cli(['shared', 'link']);
    expect(second.stdout.match(/^ok {7}/gm)).toHaveLength(3);
    expect((await summary()).symlinkStatus).toBe('ok');
  });

  it('exits 1 when a link cannot be made', async () => {
    await writeTree(path.join(configDir, 'shared'), { agents: 'a file in the way' });
    const failure = await cli(['shared', 'link']).catch((e: { code: number; stderr: string }) => e);
    expect(failure).toMatchObject({ code: 1 });
    expect((failure as { stderr: string }).stderr).toContain('is a file, not a directory');
  });
});
