import http from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A stand-in for the Codex usage endpoint on a free loopback port: two rate-limit windows,
 * one comfortable (42 %) and one nearly spent (91 %), resetting in 1 h and 3 days.
 */
export async function startFakeQuota(): Promise<{ origin: string; close(): Promise<void> }> {
  const server = http.createServer((req, res) => {
    if (req.url !== '/backend-api/wham/usage') {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(
      JSON.stringify({
        rate_limit: {
          primary_window: { used_percent: 42, limit_window_seconds: 18_000, reset_after_seconds: 3_600 },
          secondary_window: { used_percent: 91, limit_window_seconds: 604_800, reset_after_seconds: 3 * 86_400 },
        },
      }),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
