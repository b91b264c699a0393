import http from 'node:http';
import type { AddressInfo } from 'node:net';

export const FAKE_LATEST_VERSION = '9.9.9';

/**
 * Stands in for the outside world on a free loopback port, so e2e runs never leave the machine:
 * the proxy release feed (a newer version than ours) and the Codex usage endpoint (two windows,
 * 42 % and 91 % used, resetting in 1 h and 3 days).
 */
export async function startFakeUpstream(): Promise<{ origin: string; close(): Promise<void> }> {
  const server = http.createServer((req, res) => {
    const send = (body: unknown) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify(body));
    };
    if (req.url === '/releases/latest') return send({ tag_name: `v${FAKE_LATEST_VERSION}` });
    if (req.url === '/backend-api/wham/usage') {
      return send({
        rate_limit: {
          primary_window: { used_percent: 42, limit_window_seconds: 18_000, reset_after_seconds: 3_600 },
          secondary_window: { used_percent: 91, limit_window_seconds: 604_800, reset_after_seconds: 3 * 86_400 },
        },
      });
    }
    res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
