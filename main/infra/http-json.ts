import http from 'node:http';

export interface HttpJsonResult {
  status: number;
  body: unknown;
}

/**
 * GET a JSON document from a local server (our own children) with a hard timeout. No
 * keep-alive: a pooled socket would outlive the child it points at. Rejects on network errors
 * and on a body that is not JSON.
 */
export function getLocalJson(url: string, headers: Record<string, string> = {}, timeoutMs = 2_000): Promise<HttpJsonResult> {
  return new Promise((resolve, reject) => {
    const req = http.get(url, { agent: false, timeout: timeoutMs, headers: { accept: 'application/json', ...headers } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        try {
          resolve({ status: res.statusCode ?? 0, body: text ? JSON.parse(text) : null });
        } catch {
          reject(new Error(`${url} answered ${res.statusCode} with a body that is not JSON`));
        }
      });
      res.on('error', reject);
    });
    req.once('timeout', () => req.destroy(new Error(`${url} did not answer within ${timeoutMs} ms`)));
    req.once('error', reject);
  });
}

/** `host` as it goes into a URL: IPv6 in brackets, wildcard binds probed on loopback. */
export function urlHost(host: string): string {
  if (host === '0.0.0.0' || host === '') return '127.0.0.1';
  if (host === '::' || host === '[::]') return '[::1]';
  return host.includes(':') && !host.startsWith('[') ? `[${host}]` : host;
}
