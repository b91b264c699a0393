/**
 * The tray's HTTP client of the local API: the tray shows and does exactly what the API serves,
 * like any other client. No electron import, so it is tested against a real server.
 */
export interface ApiAnswer {
  ok: boolean;
  /** 0 when the request itself failed (refused, timed out). */
  status: number;
  body: unknown;
}

export interface ApiClient {
  get(path: string): Promise<ApiAnswer>;
  post(path: string, body?: unknown): Promise<ApiAnswer>;
  put(path: string, body: unknown): Promise<ApiAnswer>;
}

export interface ApiClientTimeouts {
  /** Status reads: a menu must not wait long on a stuck read. */
  readMs?: number;
  /**
   * Actions (start/stop, switch): longer than the proxy's own 30-s readiness bound plus its 5-s
   * stop grace, so a slow start on a busy machine is reported as it ends, never as a timeout.
   */
  actionMs?: number;
}

export function createApiClient(baseUrl: string, timeouts: ApiClientTimeouts = {}): ApiClient {
  const { readMs = 5_000, actionMs = 45_000 } = timeouts;
  const call = async (method: string, path: string, body?: unknown): Promise<ApiAnswer> => {
    try {
      const res = await fetch(baseUrl + path, {
        method,
        signal: AbortSignal.timeout(method === 'GET' ? readMs : actionMs),
        ...(body === undefined ? {} : { headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }),
      });
      const text = await res.text();
      return { ok: res.ok, status: res.status, body: parseJson(text) };
    } catch (err) {
      return { ok: false, status: 0, body: { error: 'API unreachable', message: err instanceof Error ? err.message : String(err) } };
    }
  };
  return { get: (path) => call('GET', path), post: (path, body) => call('POST', path, body), put: (path, body) => call('PUT', path, body) };
}

function parseJson(text: string): unknown {
  if (!text) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/** The `{error, message}` of an API error body, for notices; never more than that. */
export function describeFailure(answer: ApiAnswer): string {
  const body = answer.body as { error?: unknown; message?: unknown } | undefined;
  const error = typeof body?.error === 'string' ? body.error : `HTTP ${answer.status}`;
  const message = typeof body?.message === 'string' && body.message ? body.message : '';
  return message ? `${error}: ${message}` : error;
}
