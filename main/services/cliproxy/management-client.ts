import http from 'node:http';
import { isRecord } from '../../infra/json-checks.js';

/** Where the running binary listens and the plaintext secret its management routes take. */
export interface ManagementEndpoint {
  port: number;
  secret: string;
}

/** A management call that did not succeed; `status` is the binary's answer (0: no answer). */
export class ManagementError extends Error {
  constructor(
    readonly status: number,
    message: string,
    /** The binary's own `error` text, when it gave one. */
    readonly reason: string | null = null,
  ) {
    super(message);
    this.name = 'ManagementError';
  }
}

export interface ManagementCall {
  query?: Record<string, string | undefined>;
  body?: unknown;
  timeoutMs?: number;
}

const TIMEOUT_MS = 5_000;
/** Management answers are small JSON documents; anything larger is not one. */
const MAX_BODY = 4 * 1024 * 1024;

/**
 * The running CLIProxyAPI's `/v0/management/*` (reference cliproxy.md §5): always 127.0.0.1, the
 * secret as `Authorization: Bearer`, 5 s per call, no keep-alive (a pooled socket would outlive a
 * restarted binary). 401/403/404 become errors that say what is wrong; no call is retried, because
 * the binary bans a client (local ones too) after five refused keys.
 */
export class ManagementClient {
  constructor(private readonly endpoint: () => Promise<ManagementEndpoint>) {}

  get<T = unknown>(route: string, call: ManagementCall = {}): Promise<T> {
    return this.request<T>('GET', route, call);
  }

  async request<T = unknown>(method: string, route: string, call: ManagementCall = {}): Promise<T> {
    const { port, secret } = await this.endpoint();
    if (!Number.isInteger(port) || port <= 0 || port > 65535) throw new ManagementError(0, `CLIProxyAPI has no valid port (${port})`);
    const query = new URLSearchParams();
    for (const [k, v] of Object.entries(call.query ?? {})) if (v !== undefined) query.set(k, v);
    const pathname = `/v0/management/${route.replace(/^\//, '')}${query.size > 0 ? `?${query.toString()}` : ''}`;
    const { status, body } = await send(port, method, pathname, secret, call.body, call.timeoutMs ?? TIMEOUT_MS);
    if (status >= 200 && status < 300) return body as T;
    throw explain(status, route, isRecord(body) && typeof body.error === 'string' ? body.error : null);
  }
}

function explain(status: number, route: string, reason: string | null): ManagementError {
  const said = reason ? ` ("${reason}")` : '';
  if (status === 401) return new ManagementError(401, `CLIProxyAPI refused Switchboard's management key${said}; restart the binary so it reloads its config`, reason);
  if (status === 403) return new ManagementError(403, `CLIProxyAPI's management routes are turned off${said}`, reason);
  if (status === 404) return new ManagementError(404, `CLIProxyAPI has no management route ${route}${said}; this version may not support it`, reason);
  return new ManagementError(status, `CLIProxyAPI answered ${status} to ${route}${said}`, reason);
}

function send(port: number, method: string, pathname: string, secret: string, body: unknown, timeoutMs: number): Promise<{ status: number; body: unknown }> {
  const payload = body === undefined ? undefined : Buffer.from(JSON.stringify(body));
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        host: '127.0.0.1',
        port,
        method,
        path: pathname,
        agent: false,
        headers: {
          accept: 'application/json',
          authorization: `Bearer ${secret}`,
          ...(payload ? { 'content-type': 'application/json', 'content-length': payload.length } : {}),
        },
      },
      (res) => {
        const chunks: Buffer[] = [];
        let size = 0;
        res.on('data', (c: Buffer) => {
          size += c.length;
          if (size > MAX_BODY) req.destroy(new ManagementError(0, `CLIProxyAPI's answer to ${pathname} is too large`));
          else chunks.push(c);
        });
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          let parsed: unknown = null;
          try {
            parsed = text ? JSON.parse(text) : null;
          } catch {
            parsed = { error: text.slice(0, 200) };
          }
          resolve({ status: res.statusCode ?? 0, body: parsed });
        });
        res.on('error', reject);
      },
    );
    const timer = setTimeout(() => req.destroy(new ManagementError(0, `CLIProxyAPI did not answer ${method} ${pathname.split('?')[0]} within ${timeoutMs / 1000} s`)), timeoutMs);
    req.once('close', () => clearTimeout(timer));
    req.once('error', (err) => reject(err instanceof ManagementError ? err : new ManagementError(0, `CLIProxyAPI could not be reached on 127.0.0.1:${port}: ${err.message}`)));
    req.end(payload);
  });
}
