import { errorMessage } from '../../infra/file-stat.js';
import { overrideOrigin, type OriginOverrides } from '../../infra/origin-overrides.js';
import { ProviderRefusal } from './errors.js';

export interface OutboundRequest {
  method: 'GET' | 'POST';
  headers?: Record<string, string>;
  /** Sent as application/x-www-form-urlencoded. */
  form?: Record<string, string>;
  /** Sent as application/json. */
  json?: unknown;
}

export interface OutboundAnswer {
  status: number;
  /** The parsed JSON body; undefined when the body is not JSON. */
  body: unknown;
  text: string;
}

/** One call to a provider; network failures become a ProviderRefusal naming the provider. */
export type Outbound = (provider: string, url: string, request: OutboundRequest) => Promise<OutboundAnswer>;

/**
 * Every sign-in and refresh call goes out here, through `network.origin_overrides` (read per
 * call, so a config change applies to the next call without a restart).
 */
export function createOutbound(overrides: () => Promise<OriginOverrides>, timeoutMs = 15_000): Outbound {
  return async (provider, url, request) => {
    const target = overrideOrigin(url, await overrides());
    const headers: Record<string, string> = { accept: 'application/json', ...request.headers };
    let body: string | undefined;
    if (request.form) {
      headers['content-type'] = 'application/x-www-form-urlencoded';
      body = new URLSearchParams(request.form).toString();
    } else if (request.json !== undefined) {
      headers['content-type'] = 'application/json';
      body = JSON.stringify(request.json);
    }
    let res: Response;
    let text: string;
    try {
      res = await fetch(target, { method: request.method, headers, body, redirect: 'manual', signal: AbortSignal.timeout(timeoutMs) });
      text = await res.text();
    } catch (err) {
      const cause = (err as { cause?: unknown }).cause;
      throw new ProviderRefusal(provider, `${describe(url)} unreachable: ${cause ? errorMessage(cause) : errorMessage(err)}`);
    }
    let parsed: unknown;
    try {
      parsed = text ? JSON.parse(text) : undefined;
    } catch {
      parsed = undefined;
    }
    return { status: res.status, body: parsed, text };
  };
}

/** Origin and path of a provider URL, for messages (never a query, which may hold a code). */
export function describe(url: string): string {
  try {
    const u = new URL(url);
    return `${u.origin}${u.pathname}`;
  } catch {
    return 'the provider';
  }
}

/** The provider's own reason from an OAuth-style error body, else the status and body start. */
export function providerReason(answer: OutboundAnswer): string {
  const b = answer.body as Record<string, unknown> | undefined;
  if (b && typeof b === 'object') {
    const err = b.error;
    if (typeof err === 'string') return typeof b.error_description === 'string' ? `${err}: ${b.error_description}` : err;
    if (err && typeof err === 'object') {
      const e = err as Record<string, unknown>;
      const code = typeof e.code === 'string' ? e.code : typeof e.type === 'string' ? e.type : undefined;
      const msg = typeof e.message === 'string' ? e.message : undefined;
      if (code || msg) return [code, msg].filter(Boolean).join(': ');
    }
    if (typeof b.message === 'string') return b.message;
  }
  return `HTTP ${answer.status}${answer.text ? `: ${answer.text.slice(0, 200)}` : ''}`;
}
