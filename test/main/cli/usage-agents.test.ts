import { execFile } from 'node:child_process';
import fs from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CliError } from '../../../main/cli/args.js';
import { parseUsageArgs } from '../../../main/cli/usage.js';
import { nodeEntry } from '../../../main/infra/node-entry.js';
import { assistantLine } from '../../fixtures/usage/lines.js';
import { makeTempDir } from '../../helpers/temp-dir.js';

// `switchboard usage <report> --agent ID|all --by-agent` (decisions §5.1) as a user runs it.
const run = promisify(execFile);
let dir: string;
let cleanup: () => Promise<void>;
let env: NodeJS.ProcessEnv;

const tokenCount = (ts: string, input: number, cached: number, output: number) =>
  JSON.stringify({ timestamp: ts, type: 'event_msg', payload: { type: 'token_count', info: { last_token_usage: { input_tokens: input, cached_input_tokens: cached, output_tokens: output, reasoning_output_tokens: 0, total_tokens: input + output } } } });

beforeAll(async () => {
  ({ dir, cleanup } = await makeTempDir('switchboard-cli-agents-'));
  const agentDir = path.join(dir, 'agent');
  const transcript = path.join(agentDir, 'projects', 'p', 's.jsonl');
  await fs.mkdir(path.dirname(transcript), { recursive: true });
  await fs.writeFile(transcript, assistantLine({ msg: 'a', req: 'ra', ts: '2026-01-07T09:00:00.000Z', input: 1000, output: 100, session: 's1', cwd: '/w/api' }) + '\n');
  const rollout = path.join(dir, 'codex', 'sessions', '2026', '01', '07', 'rollout-x.jsonl');
  await fs.mkdir(path.dirname(rollout), { recursive: true });
  const turn = JSON.stringify({ timestamp: '2026-01-07T10:00:00.000Z', type: 'turn_context', payload: { cwd: '/w/cx', model: 'gpt-5-codex' } });
  await fs.writeFile(rollout, [turn, tokenCount('2026-01-07T10:00:05.000Z', 500, 100, 50)].join('\n') + '\n');
  env = { SWITCHBOARD_HOME: path.join(dir, 'home'), SWITCHBOARD_AGENT_DIR: agentDir, HOME: dir, CODEX_HOME: path.join(dir, 'codex'), COLUMNS: '200' };
});
afterAll(() => cleanup());

async function usage(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  const entry = nodeEntry('main/cli/main');
  try {
    const { stdout, stderr } = await run(entry.command, [...entry.args, 'usage', ...args], { env: { ...process.env, ...entry.env, ...env }, timeout: 60_000 });
    return { code: 0, stdout, stderr };
  } catch (err) {
    const e = err as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

describe('switchboard usage --agent / --by-agent', () => {
  it('--agent codex --json: only that agent; every agent by default, breakdown only with --by-agent', async () => {
    const codex = await usage(['daily', '--agent', 'codex', '--json', '--tz', 'UTC']);
    expect(codex.code).toBe(0);
    expect(JSON.parse(codex.stdout).daily.map((d: { date: string; inputTokens: number; cacheReadTokens: number; agents: string[] }) => [d.date, d.inputTokens, d.cacheReadTokens, d.agents])).toEqual([['2026-01-07', 400, 100, ['codex']]]);
    const all = JSON.parse((await usage(['daily', '--json', '--tz', 'UTC'])).stdout).daily;
    expect(all[0].agents).toEqual(['claude', 'codex']);
    expect(all[0]).not.toHaveProperty('agentBreakdown');
    const by = JSON.parse((await usage(['daily', '--json', '--tz', 'UTC', '--by-agent'])).stdout).daily;
    expect(by[0].agentBreakdown.codex).toMatchObject({ inputTokens: 400, cacheReadTokens: 100, outputTokens: 50, totalTokens: 550 });
  }, 120_000);

  it('--by-agent tables: a line per agent under each day; an Agent column on sessions', async () => {
    const daily = await usage(['daily', '--tz', 'UTC', '--by-agent']);
    expect(daily.code).toBe(0);
    const lines = daily.stdout.split('\n');
    const day = lines.findIndex((l) => l.includes('2026-01-07'));
    expect(lines[day + 1]).toMatch(/^\W*\s+claude\s.*1,000/);
    expect(lines[day + 2]).toMatch(/^\W*\s+codex\s.*400/);
    const sessions = await usage(['session', '--tz', 'UTC', '--by-agent']);
    expect(sessions.stdout).toMatch(/Agent/);
    expect(sessions.stdout).toMatch(/rollout-x\s+\W*\s*codex/);
  }, 120_000);

  it('an unknown agent is a usage error naming the ids', () => {
    expect(() => parseUsageArgs(['daily', '--agent', 'cursor'])).toThrow(CliError);
    expect(() => parseUsageArgs(['daily', '--agent', 'cursor'])).toThrow(/Unknown agent: --agent cursor \(Agent must be one of: claude, codex, .*, all\)/);
    expect(parseUsageArgs(['daily', '--agent', 'all']).params).not.toHaveProperty('agent');
    expect(parseUsageArgs(['daily', '--agent=gemini', '--by-agent'])).toMatchObject({ params: { agent: 'gemini' }, byAgent: true });
  });
});
