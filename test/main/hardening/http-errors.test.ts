import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { E } from '../../../main/api/error-texts.js';
import { startTestApp, type TestApp } from '../../helpers/app.js';
import { rawExchange, requestHead } from '../../helpers/raw-http.js';

/**
 * Every error of the management API is JSON, including those Node's HTTP parser answers before
 * any handler (they had empty bodies) and the paths the dashboard does not serve (they got its
 * HTML page or Express's HTML 404).
 */

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});
afterAll(() => app?.stop());

function expectJsonError(res: { status: number; headers: Record<string, unknown>; body: string }, status: number, error: string): void {
  expect(res.status, res.body).toBe(status);
  expect(String(res.headers['content-type'])).toContain('application/json');
  const body = JSON.parse(res.body) as { error: string; message?: string };
  expect(body.error).toBe(error);
}

describe("Node's own answers, as JSON", () => {
  it('431 for 3,000 headers', async () => {
    const headers = Array.from({ length: 3000 }, (_, i) => `X-Filler-${i}: v`);
    const res = await rawExchange(app.port, requestHead(app.port, 'GET /api/usage/status HTTP/1.1', headers));
    expectJsonError(res, 431, E.headersTooLarge);
    expect(JSON.parse(res.body).message).toMatch(/exceed \d+ bytes/);
  });

  it('431 for a 60 KB URL', async () => {
    const res = await rawExchange(app.port, requestHead(app.port, `GET /api/usage/status?x=${'a'.repeat(60_000)} HTTP/1.1`));
    expectJsonError(res, 431, E.headersTooLarge);
  });

  it.each([
    ['a Content-Length that is not a number', ['Content-Length: 5x'], 'Invalid Content-Length header'],
    ['Content-Length beside Transfer-Encoding', ['Content-Length: 5', 'Transfer-Encoding: chunked'], /Content-Length|chunked|Malformed/],
    ['a bad chunk size', ['Transfer-Encoding: chunked'], /chunked|Malformed/],
  ])('400 for %s', async (_name, headers, message) => {
    const res = await rawExchange(app.port, requestHead(app.port, 'PUT /api/settings/x HTTP/1.1', headers) + 'zz\r\n{}\r\n0\r\n\r\n');
    expectJsonError(res, 400, E.badRequest);
    expect(JSON.parse(res.body).message).toMatch(message);
  });

  it('400 for bytes that are not HTTP at all', async () => {
    const res = await rawExchange(app.port, 'HELLO THERE\r\n\r\n');
    expectJsonError(res, 400, E.badRequest);
  });
});

describe('paths the dashboard does not serve', () => {
  it('a WebSocket upgrade to /ws is refused with a JSON 404', async () => {
    const res = await rawExchange(
      app.port,
      requestHead(app.port, 'GET /ws HTTP/1.1', ['Upgrade: websocket', 'Sec-WebSocket-Version: 13', 'Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==']).replace('Connection: close', 'Connection: Upgrade'),
    );
    expectJsonError(res, 404, E.notFound);
  });

  it.each(['POST /foo', 'DELETE /', 'PUT /index.html', 'PATCH /settings', 'POST /ws'])('%s answers a JSON 404', async (line) => {
    const res = await rawExchange(app.port, requestHead(app.port, `${line} HTTP/1.1`, ['Content-Length: 0']));
    expectJsonError(res, 404, E.notFound);
  });
});
