/** What the daemon needs to talk to the editor's upstream. */
export interface UpstreamCredentials {
  accessToken: string;
  machineId: string;
}

export interface UpstreamOptions {
  /** Origin of the editor's API, e.g. https://api2.cursor.sh (decisions §6 `upstream_url`). */
  baseUrl: string;
  ghostMode: boolean;
  fetch?: typeof fetch;
  /**
   * Longest silence from the upstream, before its response headers and between two stream
   * chunks (config.yaml `cursor.upstream_timeout_seconds`); default DEFAULT_UPSTREAM_TIMEOUT_MS.
   */
  timeoutMs?: number;
}

/** Long enough for a large non-streaming completion, as the proxy engine's first-byte default. */
export const DEFAULT_UPSTREAM_TIMEOUT_MS = 300_000;
/** The model catalog is small: it answers fast or not at all. */
export const CATALOG_TIMEOUT_MS = 15_000;

export function upstreamTimeoutMs(options: UpstreamOptions): number {
  return options.timeoutMs ?? DEFAULT_UPSTREAM_TIMEOUT_MS;
}

/** Header carrying the machine id the credentials were issued for. */
export const MACHINE_ID_HEADER = 'x-machine-id';

export function upstreamHeaders(creds: UpstreamCredentials, ghostMode: boolean): Record<string, string> {
  return {
    authorization: `Bearer ${creds.accessToken}`,
    [MACHINE_ID_HEADER]: creds.machineId,
    ...(ghostMode ? { 'x-ghost-mode': 'true' } : {}),
  };
}

export function upstreamUrl(baseUrl: string, path: string): string {
  return baseUrl.replace(/\/+$/, '') + path;
}

/** GET {upstream_url}/v1/models; rejects on a non-2xx answer or a body that is not JSON. */
export async function fetchUpstreamModels(options: UpstreamOptions, creds: UpstreamCredentials | null): Promise<unknown> {
  const res = await (options.fetch ?? fetch)(upstreamUrl(options.baseUrl, '/v1/models'), {
    headers: { accept: 'application/json', ...(creds ? upstreamHeaders(creds, options.ghostMode) : {}) },
    signal: AbortSignal.timeout(Math.min(CATALOG_TIMEOUT_MS, upstreamTimeoutMs(options))),
  });
  if (!res.ok) {
    await res.body?.cancel();
    throw new Error(`upstream /v1/models answered ${res.status}`);
  }
  return res.json();
}

/** POST {upstream_url}/v1/chat/completions with the credentials; the signal aborts it. */
export function postChatCompletion(
  options: UpstreamOptions,
  creds: UpstreamCredentials,
  body: unknown,
  signal: AbortSignal,
): Promise<Response> {
  const stream = typeof body === 'object' && body !== null && (body as { stream?: unknown }).stream === true;
  return (options.fetch ?? fetch)(upstreamUrl(options.baseUrl, '/v1/chat/completions'), {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: stream ? 'text/event-stream' : 'application/json',
      ...upstreamHeaders(creds, options.ghostMode),
    },
    body: JSON.stringify(body),
    signal,
  });
}
