import http from 'node:http';

/**
 * True when GET `url` answers 200 within `timeoutMs`. No keep-alive, so a probe never holds
 * a socket to a child that is about to be stopped.
 */
export function isHttpOk(url: string, timeoutMs = 1_000, headers: Record<string, string> = {}): Promise<boolean> {
  return new Promise((resolve) => {
    const req = http.get(url, { agent: false, timeout: timeoutMs, headers }, (res) => {
      res.resume();
      resolve(res.statusCode === 200);
    });
    req.once('timeout', () => req.destroy(new Error('timeout')));
    req.once('error', () => resolve(false));
  });
}
