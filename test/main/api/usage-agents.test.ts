import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../../main/infra/clock.js';
import { startTestApp, type TestApp } from '../../helpers/app.js';
import { assistantLine } from '../../fixtures/usage/lines.js';

/** Decisions §5.1 over HTTP: `agent=`, `by=agent`, `agent` on sessions and projects, `GET /api/usage/agents`, config.yaml `usage.agents`. */
const clock = new ManualClock(Date.UTC(2026, 0, 10, 12, 30));
let app: TestApp;
let logs: string;

const SONNET = 'claude-sonnet-4-5-20250929';
const codexSession = [
  { timestamp: '2026-01-08T10:00:00.000Z', type: 'session_meta', payload: { id: 'c1', cwd: '/w/cx' } },
  { timestamp: '2026-01-08T10:00:01.000Z', type: 'turn_context', payload: { cwd: '/w/cx', model: 'gpt-5-codex' } },
  {
    timestamp: '2026-01-08T10:00:05.000Z',
    type: 'event_msg',
    payload: { type: 'token_count', info: { total_token_usage: { input_tokens: 1000, cached_input_tokens: 400, output_tokens: 100, reasoning_output_tokens: 40, total_tokens: 1100 }, last_token_usage: { input_tokens: 1000, cached_input_tokens: 400, output_tokens: 100, reasoning_output_tokens: 40, total_tokens: 1100 } } },
  },
];
const geminiSession = {
  sessionId: 'g1',
  startTime: '2026-01-09T08:00:00.000Z',
  messages: [{ id: 'm1', timestamp: '2026-01-09T08:00:03.000Z', type: 'gemini', model: 'gemini-2.5-pro', tokens: { input: 1000, output: 50, cached: 600, thoughts: 20, tool: 0, total: 1070 } }],
};

beforeAll(async () => {
  logs = await fs.mkdtemp(path.join(os.tmpdir(), 'switchboard-agent-logs-'));
  const codexFile = path.join(logs, 'codex', 'sessions', '2026', '01', '08', 'rollout-c1.jsonl');
  await fs.mkdir(path.dirname(codexFile), { recursive: true });
  await fs.writeFile(codexFile, codexSession.map((l) => JSON.stringify(l)).join('\n') + '\n');
  await fs.mkdir(path.join(logs, 'gemini', 'h', 'chats'), { recursive: true });
  await fs.writeFile(path.join(logs, 'gemini', 'h', 'chats', 'session-1.json'), JSON.stringify(geminiSession));
  app = await startTestApp({
    clock,
    env: { CODEX_HOME: path.join(logs, 'codex'), GEMINI_DATA_DIR: path.join(logs, 'gemini'), OPENCODE_DATA_DIR: path.join(logs, 'none'), AMP_DATA_DIR: path.join(logs, 'none') },
    before: async ({ home, agentDir }) => {
      await fs.mkdir(path.join(agentDir, 'projects', 'p'), { recursive: true });
      const line = assistantLine({ msg: 'a', req: 'ra', ts: '2026-01-08T09:00:00.000Z', input: 1000, output: 100, cacheRead: 4000, session: 's1', cwd: '/w/cl' });
      await fs.writeFile(path.join(agentDir, 'projects', 'p', 's.jsonl'), line + '\n');
      await fs.mkdir(home, { recursive: true });
      await fs.writeFile(path.join(home, 'config.yaml'), 'usage:\n  timezone: UTC\n');
    },
  });
});
afterAll(async () => {
  await app?.stop();
  await fs.rm(logs, { recursive: true, force: true });
});

const get = (p: string) => app.json('GET', p);
const READS = ['summary', 'daily', 'hourly?since=20260108&until=20260109', 'monthly', 'models', 'sessions', 'projects', 'insights'];

describe('agent= on every usage read', () => {
  it.each(READS)('%s: an unknown agent is 400 Unknown agent, naming the ids', async (read) => {
    const sep = read.includes('?') ? '&' : '?';
    const { status, body } = await get(`/api/usage/${read}${sep}agent=cursor`);
    expect(status).toBe(400);
    expect(body.error).toBe('Unknown agent');
    expect(body.message).toMatch(/^Agent must be one of: claude, codex, gemini, opencode, amp, .*, all$/);
  });

  it.each(['agent=', 'agent=CODEX', 'agent=codex&agent=gemini'])('%s is 400 Unknown agent', async (q) => {
    const { status, body } = await get(`/api/usage/daily?${q}`);
    expect(status).toBe(400);
    expect(body.error).toBe('Unknown agent');
  });

  it('by= anything but agent is 400 Invalid breakdown', async () => {
    const { status, body } = await get('/api/usage/daily?by=model');
    expect(status).toBe(400);
    expect(body).toEqual({ error: 'Invalid breakdown', message: 'by must be agent' });
  });

  it('daily of one agent holds only its requests; all (the default) holds every agent, with `agents` per day', async () => {
    const codex = await get('/api/usage/daily?agent=codex');
    expect(codex.status).toBe(200);
    expect(codex.body.daily.map((d: { date: string; inputTokens: number; cacheReadTokens: number; agents: string[] }) => [d.date, d.inputTokens, d.cacheReadTokens, d.agents])).toEqual([['2026-01-08', 600, 400, ['codex']]]);
    const all = (await get('/api/usage/daily')).body.daily;
    expect(all.map((d: { date: string; agents: string[] }) => [d.date, d.agents])).toEqual([
      ['2026-01-08', ['claude', 'codex']],
      ['2026-01-09', ['gemini']],
    ]);
    expect(all[0]).not.toHaveProperty('agentBreakdown');
    expect((await get('/api/usage/daily?agent=all')).body.daily).toEqual(all);
  });

  it('by=agent adds agentBreakdown, whose totalTokens is ccusage\'s (Gemini thoughts included); the plain answer stays plain', async () => {
    const { body } = await get('/api/usage/daily?by=agent');
    expect(body.daily[0].agentBreakdown).toEqual({
      claude: { inputTokens: 1000, outputTokens: 100, cacheReadTokens: 4000, cacheWriteTokens: 0, totalTokens: 5100, cost: expect.any(Number) },
      codex: { inputTokens: 600, outputTokens: 100, cacheReadTokens: 400, cacheWriteTokens: 0, totalTokens: 1100, cost: expect.closeTo((600 * 1.25 + 100 * 10 + 400 * 0.125) / 1e6, 15) },
    });
    expect(body.daily[1].agentBreakdown.gemini).toEqual({ inputTokens: 400, outputTokens: 50, cacheReadTokens: 600, cacheWriteTokens: 0, totalTokens: 1070, cost: expect.closeTo(0.001275, 15) });
    // The same answer object, asked again without by=: no breakdown (each shape is serialised apart).
    expect((await get('/api/usage/daily')).body.daily[0]).not.toHaveProperty('agentBreakdown');
    const summary = (await get('/api/usage/summary?by=agent')).body;
    expect(summary.agents).toEqual(['claude', 'codex', 'gemini']);
    expect(Object.keys(summary.agentBreakdown)).toEqual(['claude', 'codex', 'gemini']);
    expect(summary.totalTokens).toBe(5100 + 1100 + 1050); // spec total: the four kinds only
    const monthly = (await get('/api/usage/monthly?by=agent')).body.monthly;
    expect(monthly[0].agentBreakdown.gemini.totalTokens).toBe(1070);
    const hourly = (await get('/api/usage/hourly?since=20260108&until=20260108&by=agent')).body.hourly;
    expect(hourly[10].agents).toEqual(['codex']);
    expect(hourly[10].agentBreakdown.codex.inputTokens).toBe(600);
  });

  it('sessions and projects carry their agent, and filter by it', async () => {
    const sessions = (await get('/api/usage/sessions')).body.sessions;
    expect(sessions.map((s: { sessionId: string; agent: string }) => [s.sessionId, s.agent])).toEqual([
      ['g1', 'gemini'],
      ['2026/01/08/rollout-c1', 'codex'],
      ['s1', 'claude'],
    ]);
    const projects = (await get('/api/usage/projects?agent=codex')).body.projects;
    expect(projects.map((p: { projectPath: string; agent: string }) => [p.projectPath, p.agent])).toEqual([['/w/cx', 'codex']]);
    expect((await get('/api/usage/models?agent=gemini')).body.models.map((m: { model: string }) => m.model)).toEqual(['gemini-2.5-pro']);
  });
});

describe('GET /api/usage/agents', () => {
  it('lists every agent: found or not, where it was looked for, files and records, and why some are unsupported', async () => {
    const { status, body } = await get('/api/usage/agents');
    expect(status).toBe(200);
    const byId = Object.fromEntries(body.agents.map((a: { id: string }) => [a.id, a]));
    expect(body.agents.map((a: { id: string }) => a.id)).toEqual([
      'claude', 'codex', 'gemini', 'opencode', 'amp', 'qwen', 'pi', 'openclaw', 'droid', 'kilo', 'goose', 'hermes', 'kimi', 'codebuff', 'copilot', 'antigravity', 'grok', 'zcode',
    ]);
    expect(byId.codex).toEqual({ id: 'codex', name: 'OpenAI Codex CLI', supported: true, enabled: true, dirs: [path.join(logs, 'codex')], found: true, files: 1, records: 1, lastActivity: '2026-01-08T10:00:05.000Z' });
    expect(byId.claude).toMatchObject({ supported: true, found: true, files: 1, records: 1, dirs: [path.join(app.agentDir, 'projects')] });
    expect(byId.opencode).toMatchObject({ supported: true, enabled: true, found: false, files: 0, records: 0, lastActivity: null, dirs: [path.join(logs, 'none')] });
    expect(byId.kilo).toMatchObject({ supported: true, found: false, files: 0, records: 0 });
    expect(byId.kimi).toMatchObject({ supported: true, dirs: [path.join(app.home, '.kimi'), path.join(app.home, '.kimi-code')], found: false, files: 0 });
    expect(byId.codebuff).toMatchObject({ supported: true, dirs: ['manicode', 'manicode-dev', 'manicode-staging'].map((c) => path.join(app.home, '.config', c)), found: false });
    expect(byId.copilot).toMatchObject({ supported: true, dirs: [path.join(app.home, '.copilot')], found: false });
    expect(byId.goose).toMatchObject({ supported: true, found: false, files: 0, records: 0 });
    expect(byId.hermes).toMatchObject({ supported: true, dirs: [path.join(app.home, '.hermes')], found: false });
    expect(byId.grok.reason).toMatch(/ccusage binary/);
  });
});

describe('config.yaml usage.agents', () => {
  it('enabled: false drops an agent at the next refresh; dirs replaces its locations', async () => {
    const elsewhere = path.join(logs, 'elsewhere');
    await fs.mkdir(path.join(elsewhere, 'h2', 'chats'), { recursive: true });
    await fs.writeFile(path.join(elsewhere, 'h2', 'chats', 'session-2.json'), JSON.stringify({ ...geminiSession, sessionId: 'g2' }));
    await fs.writeFile(path.join(app.home, 'config.yaml'), `usage:\n  timezone: UTC\n  agents:\n    codex:\n      enabled: false\n    gemini:\n      dirs: [${JSON.stringify(elsewhere)}]\n`);
    expect((await app.json('POST', '/api/usage/refresh')).status).toBe(200);
    const sessions = (await get('/api/usage/sessions')).body.sessions;
    expect(sessions.map((s: { sessionId: string }) => s.sessionId)).toEqual(['g2', 's1']);
    const agents = Object.fromEntries((await get('/api/usage/agents')).body.agents.map((a: { id: string }) => [a.id, a]));
    expect(agents.codex).toMatchObject({ enabled: false, records: 0 });
    expect(agents.gemini).toMatchObject({ dirs: [elsewhere], files: 1, records: 1 });
  });
});
