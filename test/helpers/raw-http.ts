import http from 'node:http';

export interface RawResponse {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
}

/**
 * One request with the path sent byte-for-byte as given: fetch() would normalise `..` segments
 * and refuse some headers, which would hide exactly what these tests probe.
 */
export function rawRequest(
  port: number,
  method: string,
  rawPath: string,
  options: { headers?: Record<string, string>; body?: string | Buffer; timeoutMs?: number } = {},
): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        host: '127.0.0.1',
        port,
        method,
        path: rawPath,
        headers: { host: `127.0.0.1:${port}`, ...options.headers },
        timeout: options.timeoutMs ?? 60_000,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString('utf8') }));
        res.on('error', reject);
      },
    );
    req.on('timeout', () => req.destroy(new Error(`timeout: ${method} ${rawPath}`)));
    req.on('error', reject);
    req.end(options.body);
  });
}
