import http from 'node:http';
import net from 'node:net';

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

/** Bytes written as-is on a new connection; resolves with status, headers and body once the server closes. */
export function rawExchange(port: number, text: string, timeoutMs = 10_000): Promise<RawResponse & { raw: string }> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1', () => socket.write(text));
    const chunks: Buffer[] = [];
    const timer = setTimeout(() => socket.destroy(new Error(`no close within ${timeoutMs} ms`)), timeoutMs);
    socket.on('data', (c: Buffer) => chunks.push(c));
    socket.on('error', (err) => {
      clearTimeout(timer);
      reject(err);
    });
    socket.on('close', () => {
      clearTimeout(timer);
      const raw = Buffer.concat(chunks).toString('utf8');
      const [head = '', ...rest] = raw.split('\r\n\r\n');
      const [statusLine = '', ...headerLines] = head.split('\r\n');
      const headers: http.IncomingHttpHeaders = {};
      for (const line of headerLines) {
        const i = line.indexOf(':');
        if (i > 0) headers[line.slice(0, i).toLowerCase()] = line.slice(i + 1).trim();
      }
      resolve({ status: Number(statusLine.split(' ')[1] ?? 0), headers, body: rest.join('\r\n\r\n'), raw });
    });
  });
}

/** A request line plus Host and `extra` header lines, with the blank line that ends the head. */
export function requestHead(port: number, line: string, extra: string[] = []): string {
  return [line, `Host: 127.0.0.1:${port}`, ...extra, 'Connection: close', '', ''].join('\r\n');
}
