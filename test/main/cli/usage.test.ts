import { execFile } from 'node:child_process';
import fs from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CliError } from '../../../main/cli/args.js';
import { parseUsageArgs, runUsage } from '../../../main/cli/usage.js';
import { ManualClock } from '../../../main/infra/clock.js';
import { nodeEntry } from '../../../main/infra/node-entry.js';
import { assistantLine } from '../../fixtures/usage/lines.js';
import { makeTempDir } from '../../helpers/temp-dir.js';

// `switchboard usage …` as a user runs it: a child process on a temp home, no server.
const run = promisify(execFile);
let dir: string;
let cleanup: () => Promise<void>;
let env: NodeJS.ProcessEnv;
let transcript: string;

const lines = [
  assistantLine({ msg: 'a', req: 'ra', ts: '2026-01-07T09:00:00.000Z', input: 1000, output: 100, cacheRead: 5000, session: 's2', cwd: '/w/api' }),
  assistantLine({ msg: 'b', req: 'rb', ts: '2026-01-08T09:00:00.000Z', model: 'claude-opus-4-6', input: 20_000, output: 4000, session: 's3', cwd: '/w/api' }),
  assistantLine({ msg: 'c', req: 'rc', ts: '2026-02-09T23:30:00.000Z', input: 10, output: 10, session: 's1', cwd: '/home/dev/src/a-very-long-project-name/web', costUSD: 2 }),
];

beforeAll(async () => {
  ({ dir, cleanup } = await makeTempDir('switchboard-cli-usage-'));
  const agentDir = path.join(dir, 'agent');
  transcript = path.join(agentDir, 'projects', 'p', 's.jsonl');
  await fs.mkdir(path.dirname(transcript), { recursive: true });
  await fs.writeFile(transcript, lines.join('\n') + '\n');
  env = { SWITCHBOARD_HOME: path.join(dir, 'home'), SWITCHBOARD_AGENT_DIR: agentDir, HOME: dir, COLUMNS: '200' };
});
afterAll(() => cleanup());

async function usage(args: string[], extra: NodeJS.ProcessEnv = {}): Promise<{ code: number; stdout: string; stderr: string }> {
  const entry = nodeEntry('main/cli/main');
  try {
    const { stdout, stderr } = await run(entry.command, [...entry.args, 'usage', ...args], { env: { ...process.env, ...entry.env, ...env, ...extra }, timeout: 60_000 });
    return { code: 0, stdout, stderr };
  } catch (err) {
    const e = err as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

describe('switchboard usage (child process)', () => {
  it('daily --json scans when there is no cache, answers as /api/usage/daily does, and leaves the disk cache', async () => {
    const { code, stdout } = await usage(['daily', '--json', '--tz', 'UTC']);
    expect(code).toBe(0);
    const body = JSON.parse(stdout);
    expect(body.daily.map((d: any) => [d.date, d.inputTokens, d.outputTokens])).toEqual([
      ['2026-01-07', 1000, 100],
      ['2026-01-08', 20_000, 4000],
      ['2026-02-09', 10, 10],
    ]);
    expect(Object.keys(body.daily[0]).sort()).toEqual(['agents', 'cacheReadTokens', 'cacheWriteTokens', 'cost', 'date', 'inputTokens', 'modelBreakdown', 'modelsUsed', 'outputTokens']);
    await fs.stat(path.join(dir, 'home', '.cache', 'usage-cache.json'));
  }, 90_000);

  it('reads the warm cache: an append within the fresh minute is not seen, the window, zone and mode apply', async () => {
    await fs.appendFile(transcript, assistantLine({ msg: 'z', req: 'rz', ts: '2026-02-10T09:00:00.000Z', input: 7, output: 1, session: 's9' }) + '\n');
    const tokyo = JSON.parse((await usage(['daily', '--json', '--tz=Asia/Tokyo', '--since', '20260210'])).stdout);
    expect(tokyo.daily.map((d: any) => d.date)).toEqual(['2026-02-10']); // 23:30 UTC is the next day in Tokyo
    expect(tokyo.daily[0].inputTokens).toBe(10);
    const display = JSON.parse((await usage(['models', '--json', '--mode', 'display'])).stdout);
    expect(display.totalCost).toBe(2);
  }, 90_000);

  it('session: costliest first, in the API shape; projects and monthly too', async () => {
    const sessions = JSON.parse((await usage(['session', '--json', '--mode', 'calculate'])).stdout);
    expect(sessions.sessions.map((s: any) => s.sessionId)).toEqual(['s3', 's2', 's1']);
    expect(sessions).toMatchObject({ total: 3, limit: 3, offset: 0 });
    const projects = JSON.parse((await usage(['projects', '--json'])).stdout);
    expect(projects.projects.map((p: any) => [p.projectPath, p.sessions])).toEqual([
      ['/home/dev/src/a-very-long-project-name/web', 1],
      ['/w/api', 2],
    ]);
    const monthly = JSON.parse((await usage(['monthly', '--json', '--tz', 'UTC'])).stdout);
    expect(monthly.monthly.map((m: any) => m.month)).toEqual(['2026-01', '2026-02']);
  }, 90_000);

  it('prints a table sized to the terminal, with totals', async () => {
    const wide = await usage(['projects'], { COLUMNS: '200' });
    expect(wide.code).toBe(0);
    expect(wide.stdout).toContain('/home/dev/src/a-very-long-project-name/web');
    expect(wide.stdout).toMatch(/^Total\s/m);
    const narrow = await usage(['projects'], { COLUMNS: '60' });
    for (const line of narrow.stdout.trimEnd().split('\n')) expect([...line].length).toBeLessThanOrEqual(60);
    expect(narrow.stdout).toContain('…');
  }, 90_000);

  it('--help and no report print the help and exit 0', async () => {
    // Through the CLI's own help path (`<command> -h`) as a child; the other spellings in process.
    const { code, stdout } = await usage(['daily', '-h']);
    expect(code).toBe(0);
    expect(stdout).toContain('Usage: switchboard usage <report> [options]');
    for (const args of [['--help'], []]) {
      let printed = '';
      expect(await runUsage(args, env, { out: (t) => void (printed += t), err: () => undefined })).toBe(0);
      expect(printed).toContain('Usage: switchboard usage <report> [options]');
    }
  }, 90_000);

  it('with no transcripts at all says where it looked (stderr), every time; --json stays clean', async () => {
    const empty = path.join(dir, 'empty-agent');
    await fs.mkdir(empty, { recursive: true });
    const emptyEnv = { ...env, SWITCHBOARD_HOME: path.join(dir, 'empty-home'), SWITCHBOARD_AGENT_DIR: empty };
    for (let i = 0; i < 2; i++) {
      let out = '';
      let err = '';
      expect(await runUsage(['daily', '--json'], emptyEnv, { out: (t) => void (out += t), err: (t) => void (err += t) })).toBe(0);
      expect(JSON.parse(out)).toEqual({ daily: [] });
      expect(err).toBe(`switchboard: no agent transcripts found in ${path.join(empty, 'projects')}; if Claude Code keeps them elsewhere, set CLAUDE_CONFIG_DIR (or SWITCHBOARD_AGENT_DIR) to that folder\n`);
    }
  }, 90_000);

  it('--since/--until take relative days, counted in the usage zone, and say on stderr what they took them for', async () => {
    const clock = new ManualClock(Date.UTC(2026, 1, 10, 12));
    const ask = async (args: string[], runEnv = env) => {
      let out = '';
      let err = '';
      expect(await runUsage(['daily', '--json', ...args], runEnv, { out: (t) => void (out += t), err: (t) => void (err += t) }, 200, clock)).toBe(0);
      return { dates: (JSON.parse(out) as { daily: Array<{ date: string }> }).daily.map((d) => d.date), err };
    };
    expect(await ask(['--since', '2d', '--until', '20260209', '--tz', 'UTC'])).toEqual({ dates: ['2026-02-09'], err: 'switchboard: since 2026-02-09 (2d, UTC)\n' });
    expect(await ask(['--since=5w', '--until', 'yesterday', '--tz', 'UTC'])).toEqual({
      dates: ['2026-01-07', '2026-01-08', '2026-02-09'],
      err: 'switchboard: since 2026-01-07 (5w, UTC)\nswitchboard: until 2026-02-09 (yesterday, UTC)\n',
    });
    // No --tz: usage.timezone from config.yaml, as the report itself counts days.
    const home = path.join(dir, 'tokyo-home');
    await fs.mkdir(home, { recursive: true });
    await fs.writeFile(path.join(home, 'config.yaml'), 'usage:\n  timezone: Asia/Tokyo\n');
    clock.set(Date.UTC(2026, 1, 9, 23, 45));
    expect(await ask(['--since', 'today'], { ...env, SWITCHBOARD_HOME: home })).toEqual({ dates: ['2026-02-10'], err: 'switchboard: since 2026-02-10 (today, Asia/Tokyo)\n' });
  }, 90_000);

  it('relative days that cross are refused as a range, with the usage error', async () => {
    const clock = new ManualClock(Date.UTC(2026, 1, 10, 12));
    await expect(runUsage(['daily', '--since', 'today', '--until', '3d', '--tz', 'UTC'], env, { out: () => undefined, err: () => undefined }, 200, clock)).rejects.toThrow(
      /Invalid date range: --since is after --until/,
    );
  });

  const badArgs: Array<[string[], RegExp]> = [
    [['weekly'], /unknown usage report 'weekly'/],
    [['daily', '--since', '2026-01-01'], /Invalid date format\. Use YYYYMMDD, today, yesterday, Nd \(last N days\) or Nw \(last N weeks\): --since 2026-01-01/],
    [['daily', '--since', '20260230'], /Invalid date format/],
    [['daily', '--since', '1m'], /Invalid date format. Use YYYYMMDD, today, yesterday, Nd \(last N days\) or Nw \(last N weeks\): --since 1m/],
    [['daily', '--until', '0d'], /Invalid date format.*--until 0d/],
    [['daily', '--since', '20260110', '--until', '20260101'], /Invalid date range/],
    [['daily', '--tz', 'Mars/Base'], /Invalid timezone: --tz Mars\/Base/],
    [['daily', '--mode', 'cheap'], /Invalid cost mode: --mode cheap/],
    [['daily', '--since'], /--since needs a value/],
    [['daily', '--since', '20260101', '--since', '20260102'], /--since given twice/],
    [['daily', '--verbose'], /unexpected argument '--verbose'/],
  ];

  it.each(badArgs)('a usage error for %j names what is wrong', (args, message) => {
    expect(() => parseUsageArgs(args)).toThrow(CliError);
    expect(() => parseUsageArgs(args)).toThrow(message);
  });

  it('a usage error exits 2 with its message on stderr and nothing on stdout (child process)', async () => {
    for (const [args, message] of [badArgs[0]!, badArgs[6]!]) {
      const { code, stderr, stdout } = await usage(args);
      expect(code).toBe(2);
      expect(stdout).toBe('');
      expect(stderr).toMatch(message);
    }
  }, 90_000);

  it('exit 1 when the transcripts cannot be read and nothing is cached', async () => {
    const broken = path.join(dir, 'broken');
    await fs.mkdir(broken, { recursive: true });
    await fs.writeFile(path.join(broken, 'projects'), 'not a directory');
    const { code, stderr } = await usage(['daily'], { SWITCHBOARD_AGENT_DIR: broken, SWITCHBOARD_HOME: path.join(dir, 'home2') });
    expect(code).toBe(1);
    expect(stderr).toMatch(/cannot read usage/);
  }, 90_000);
});
