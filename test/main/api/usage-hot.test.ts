import fs from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { ManualClock } from '../../../main/infra/clock.js';
import { startTestApp, type TestApp } from '../../helpers/app.js';
import { assistantLine } from '../../fixtures/usage/lines.js';
import { rawRequest } from '../../helpers/raw-http.js';

// The remembered-answer path (main/api/hot-answers.ts) in the real app: the service is asked only
// when its answer may have changed, and whoever answers, the client sees the same thing.
const clock = new ManualClock(Date.UTC(2026, 0, 10, 12, 30));
let app: TestApp;
let transcript: string;

beforeAll(async () => {
  app = await startTestApp({
    clock,
    before: async ({ home, agentDir }) => {
      await fs.mkdir(path.join(agentDir, 'projects', 'p'), { recursive: true });
      transcript = path.join(agentDir, 'projects', 'p', 's.jsonl');
      await fs.writeFile(transcript, assistantLine({ msg: 'a', req: 'ra', ts: '2026-01-09T09:00:00.000Z', input: 100, output: 10 }) + '\n');
      await fs.mkdir(home, { recursive: true });
      await fs.writeFile(path.join(home, 'config.yaml'), 'usage:\n  timezone: UTC\n');
    },
  });
});
afterAll(() => app?.stop());

async function get(url: string, headers: Record<string, string> = {}) {
  const res = await rawRequest(app.port, 'GET', url, { headers });
  return { status: res.status, type: res.headers['content-type'], length: res.headers['content-length'], text: res.body };
}

describe('remembered usage answers', () => {
  it('a repeated read is answered without asking the service, byte for byte the same', async () => {
    const spy = vi.spyOn(app.services.usage, 'summary');
    // The first read waits for the first scan: the data changes under it, so it is not remembered.
    const first = await get('/api/usage/summary?tz=UTC');
    const second = await get('/api/usage/summary?tz=UTC');
    const third = await get('/api/usage/summary?tz=UTC');
    expect(first.status).toBe(200);
    expect(first.type).toBe('application/json; charset=utf-8');
    expect(JSON.parse(first.text).inputTokens).toBe(100);
    expect(second).toEqual(first);
    expect(third).toEqual(first);
    expect(spy).toHaveBeenCalledTimes(2);
    spy.mockRestore();
  });

  it('each endpoint and query is its own answer', async () => {
    const daily = await get('/api/usage/daily?tz=UTC');
    const tokyo = await get('/api/usage/daily?tz=Asia/Tokyo');
    const sessions = await get('/api/usage/sessions?tz=UTC&limit=1');
    expect(JSON.parse(daily.text).daily[0].date).toBe('2026-01-09');
    expect(JSON.parse(tokyo.text).daily[0].date).toBe('2026-01-09');
    expect(JSON.parse(sessions.text).limit).toBe(1);
    expect(await get('/api/usage/daily?tz=UTC')).toEqual(daily);
    expect(await get('/api/usage/sessions?tz=UTC&limit=1')).toEqual(sessions);
  });

  it('a bad query is never remembered: it keeps its 400', async () => {
    for (let i = 0; i < 2; i++) {
      const res = await get('/api/usage/summary?tz=Nowhere/Else');
      expect(res.status).toBe(400);
      expect(JSON.parse(res.text).error).toBe('Invalid timezone');
    }
  });

  it('the Host guard still applies to a remembered answer', async () => {
    await get('/api/usage/summary?tz=UTC');
    const res = await get('/api/usage/summary?tz=UTC', { host: 'rebind.example:80' });
    expect(res.status).toBe(403);
  });

  it('stale data: the remembered answer is still given and starts the refresh; then new data is answered', async () => {
    const spy = vi.spyOn(app.services.usage, 'summary');
    const remembered = await get('/api/usage/summary?tz=UTC');
    expect(spy).toHaveBeenCalledTimes(0); // still fresh: remembered
    await fs.appendFile(transcript, assistantLine({ msg: 'b', req: 'rb', ts: '2026-01-10T09:00:00.000Z', input: 7, output: 1 }) + '\n');
    clock.advance(60_000);
    const stale = await get('/api/usage/summary?tz=UTC');
    expect(stale).toEqual(remembered); // what a read of stale data answers: the old numbers, at once
    expect(spy).toHaveBeenCalledTimes(0);
    await vi.waitFor(async () => {
      await app.services.usage.whenIdle();
      expect(JSON.parse((await get('/api/usage/summary?tz=UTC')).text).inputTokens).toBe(107);
    });
    const fresh = await get('/api/usage/summary?tz=UTC');
    expect(await get('/api/usage/summary?tz=UTC')).toEqual(fresh);
    expect(spy).toHaveBeenCalledTimes(1); // once after the refresh moved the data, then remembered again
    spy.mockRestore();
  });

  it('a refresh drops what was remembered', async () => {
    await get('/api/usage/models?tz=UTC');
    await fs.appendFile(transcript, assistantLine({ msg: 'c', req: 'rc', ts: '2026-01-10T10:00:00.000Z', input: 3, output: 1 }) + '\n');
    expect((await app.json('POST', '/api/usage/refresh')).status).toBe(200);
    const models = JSON.parse((await get('/api/usage/models?tz=UTC')).text);
    expect(models.models[0].inputTokens).toBe(110);
  });

  it('the default zone: a config change through the API drops answers that used it', async () => {
    const dates = async () => JSON.parse((await get('/api/usage/daily')).text).daily.map((d: { date: string }) => d.date);
    expect(await dates()).toEqual(['2026-01-09', '2026-01-10']);
    expect(await dates()).toEqual(['2026-01-09', '2026-01-10']); // remembered
    const { body } = await app.json('GET', '/api/config');
    body.config.usage.timezone = 'Pacific/Kiritimati'; // UTC+14: 2026-01-10T10:00Z is the 11th there
    expect((await app.json('PUT', '/api/config', { config: body.config, expectedMtime: body.mtime })).status).toBe(200);
    expect(await dates()).toEqual(['2026-01-09', '2026-01-10', '2026-01-11']);
  });

  it('the default zone: an edit of config.yaml outside the app is answered after the next re-read', async () => {
    const dates = async () => JSON.parse((await get('/api/usage/daily')).text).daily.map((d: { date: string }) => d.date);
    expect(await dates()).toEqual(['2026-01-09', '2026-01-10', '2026-01-11']);
    await fs.writeFile(path.join(app.home, 'config.yaml'), 'usage:\n  timezone: UTC\n');
    expect(await dates()).toEqual(['2026-01-09', '2026-01-10', '2026-01-11']); // read less than 5 s ago
    clock.advance(5_000);
    await vi.waitFor(async () => expect(await dates()).toEqual(['2026-01-09', '2026-01-10']));
  });
});
