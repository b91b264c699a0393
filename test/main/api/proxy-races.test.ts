import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { isProcessAlive } from '../../../main/infra/process-alive.js';
import { startTestApp, type TestApp } from '../../helpers/app.js';
import { prepareProxyHome } from '../../fixtures/proxy-home.js';
import { waitDead } from '../../fixtures/supervised.js';

/**
 * Issue 17, "truthful races", against the real engine on a free port: ten concurrent starts
 * all answered `started: true` while one engine ran; a start cancelled by a stop answered 500.
 */
let app: TestApp;
let proxyPort: number;

beforeAll(async () => {
  app = await startTestApp({
    before: async ({ home }) => {
      proxyPort = await prepareProxyHome(home);
    },
  });
});
afterAll(() => app.stop());
afterEach(async () => {
  await app.json('POST', '/api/proxy/proxy-stop');
});

describe('concurrent proxy starts and stops', () => {
  it('ten concurrent starts: exactly one reports started, nine alreadyRunning, one engine runs', async () => {
    const answers = await Promise.all(Array.from({ length: 10 }, () => app.json('POST', '/api/proxy/proxy-start')));
    expect(answers.map((a) => a.status)).toEqual(Array(10).fill(200));
    const started = answers.filter((a) => a.body.started === true);
    expect(started).toEqual([{ status: 200, body: { started: true, alreadyRunning: false, port: proxyPort } }]);
    expect(answers.filter((a) => a.body.alreadyRunning === true).map((a) => a.body)).toEqual(
      Array(9).fill({ started: false, alreadyRunning: true, port: proxyPort }),
    );
    const status = await app.json('GET', '/api/proxy/proxy-status');
    expect(status.body).toMatchObject({ running: true, port: proxyPort });
    expect(isProcessAlive(status.body.pid)).toBe(true);
  });

  it('a start cancelled by a stop answers 409 Proxy start cancelled; the stop says what it did', async () => {
    const start = app.json('POST', '/api/proxy/proxy-start');
    // The stop lands while the start is under way (before the engine is ready).
    await new Promise((r) => setTimeout(r, 5));
    const stop = await app.json('POST', '/api/proxy/proxy-stop');
    const started = await start;
    expect(started.status).toBe(409);
    expect(started.body).toEqual({
      error: 'Proxy start cancelled',
      message: 'A proxy-stop request cancelled this start; the proxy is not running',
    });
    expect(stop.status).toBe(200);
    if (stop.body.stopped) {
      expect(stop.body).toEqual({ stopped: true, pid: expect.any(Number), sessionCount: 0 });
      expect(await waitDead(stop.body.pid)).toBe(true);
    } else {
      expect(stop.body).toEqual({ stopped: false, message: 'Proxy start cancelled before the proxy ran' });
    }
    expect(await app.json('GET', '/api/proxy/proxy-status')).toEqual({ status: 200, body: { running: false } });
    // Nothing is stuck: the next start works.
    expect((await app.json('POST', '/api/proxy/proxy-start')).body).toEqual({ started: true, alreadyRunning: false, port: proxyPort });
  });

  it('start and stop sent together, many times: never a 500, and the answers agree with the end state', async () => {
    for (let round = 0; round < 5; round++) {
      const [start, stop] = await Promise.all([app.json('POST', '/api/proxy/proxy-start'), app.json('POST', '/api/proxy/proxy-stop')]);
      expect([200, 409], JSON.stringify(start)).toContain(start.status);
      expect(stop.status).toBe(200);
      const running = (await app.json('GET', '/api/proxy/proxy-status')).body.running;
      // Either the stop came first (start then runs) or it cancelled/stopped the start.
      expect(running, JSON.stringify({ start, stop })).toBe(start.status === 200 && stop.body.stopped === false && stop.body.message === 'Proxy is not running');
      await app.json('POST', '/api/proxy/proxy-stop');
    }
  });
});
